package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.internal.layout.BlockDescriptor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Child-JVM main: appends {@code count} {@link #excerpts seeded excerpts} of 1 to 200 bytes (and, given a sixth
 * argument {@code n > 0}, about one in {@code n} of the largest size a block takes) to a queue of
 * {@code blockSize}-byte blocks, one cycle long, and writes the cycle file's length after each append, a line each,
 * to {@code sizesFile}; then prints "done". For tests of how an appender maps its file a block at a time, with and
 * without native access.
 */
public final class BlockEdgeWriter {
    private BlockEdgeWriter() {
    }

    /** The excerpts the writer appends: the same for the same seed and count, in any JVM. */
    public static byte[][] excerpts(long seed, int count) {
        return excerpts(seed, count, 0, 0);
    }

    /**
     * As {@link #excerpts(long, int)}, with about one in {@code largestEvery} (none at 0) of {@code largest} bytes:
     * some of them start near a block's end and lie whole only in the overlap its chunk maps beyond it.
     */
    public static byte[][] excerpts(long seed, int count, int largest, int largestEvery) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] excerpts = new byte[count][];
        for (int i = 0; i < count; i++) {
            boolean large = largestEvery > 0 && random.nextInt(largestEvery) == 0;
            excerpts[i] = new byte[large ? largest : 1 + random.nextInt(200)];
            random.nextBytes(excerpts[i]);
        }
        return excerpts;
    }

    /** The largest excerpt a queue of this block size takes ({@link BlockDescriptor#maxExcerptSize}). */
    public static int largest(long blockSize) {
        return Math.toIntExact(BlockDescriptor.maxExcerptSize(blockSize));
    }

    /**
     * The queue the writer appends to: a small roll cycle, for a small block, and a clock that stands still, for one
     * cycle.
     */
    public static MappedQueue open(Path dir, long blockSize) {
        return MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY)
                .clock(new MutableClock(Instant.parse("2026-11-27T10:00:00Z"))).blockSize(blockSize).build();
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long blockSize = Long.parseLong(args[1]);
        long seed = Long.parseLong(args[2]);
        int count = Integer.parseInt(args[3]);
        Path sizesFile = Path.of(args[4]);
        int largestEvery = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        List<String> sizes = new ArrayList<>(count);
        try (MappedQueue queue = open(dir, blockSize); ExcerptAppender appender = queue.createAppender()) {
            for (byte[] excerpt : excerpts(seed, count, largest(blockSize), largestEvery)) {
                appender.writeBytes(excerpt);
                sizes.add(Long.toString(Files.size(cycleFile(dir))));
            }
        }
        Files.write(sizesFile, sizes);
        System.out.println("done");
    }

    private static Path cycleFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }
}
