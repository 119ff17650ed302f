package io.cq.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The floor of the latency harness: a bare memory-mapped file with nothing of a queue around it. Each record is a
 * length word published with a release store, followed by the payload; the reader acquires the word. No lock, no
 * roll, no index, no reserved blocks (a full disk is a SIGBUS), one writer: not a queue, and measured only to show
 * what the harness, the JVM and this machine leave for a queue to add.
 */
public final class FloorDriver implements QueueDriver {
    /** Sparse: only what is written takes pages; more than the longest full-mode run writes. */
    private static final long MAPPED = 8L << 30;
    private static final VarHandle LENGTH = ValueLayout.JAVA_INT.varHandle();

    private final Arena arena = Arena.ofShared();
    private final FileChannel channel;
    private final MemorySegment file;
    /**
     * The writer's and the reader's positions, each in an array of its own so that they never share a cache line:
     * as two fields of this object, every append invalidated the line the reader's every look loaded, in one JVM
     * (0.33-0.36 us at the median against 0.18-0.19 us between two JVMs, where nothing of the heap is shared).
     */
    private final long[] writePosition = new long[16];
    private final long[] readPosition = new long[16];
    private final OneByOneReads oneByOne = new OneByOneReads();

    public FloorDriver(Path directory) {
        try {
            Files.createDirectories(directory);
            channel = FileChannel.open(directory.resolve("floor.dat"), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
            file = channel.map(FileChannel.MapMode.READ_WRITE, 0, MAPPED, arena);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the floor's file in " + directory, e);
        }
    }

    private static long next(long position, int length) {
        return (position + Integer.BYTES + length + 7) & -8L;
    }

    @Override
    public long append(long value, byte[] payload) {
        long p = writePosition[8];
        file.set(ValueLayout.JAVA_LONG_UNALIGNED, p + Integer.BYTES, value);
        MemorySegment.copy(payload, 8, file, ValueLayout.JAVA_BYTE, p + Integer.BYTES + 8, payload.length - 8);
        LENGTH.setRelease(file, p, payload.length);
        writePosition[8] = next(p, payload.length);
        return p;
    }

    @Override
    public long read() {
        long p = readPosition[8];
        int length = (int) LENGTH.getAcquire(file, p);
        if (length == 0) {
            return -1;
        }
        readPosition[8] = next(p, length);
        return file.get(ValueLayout.JAVA_LONG_UNALIGNED, p + Integer.BYTES) + length;
    }

    @Override
    public int readCopy(byte[] into) {
        long p = readPosition[8];
        int length = (int) LENGTH.getAcquire(file, p);
        if (length == 0) {
            return -1;
        }
        readPosition[8] = next(p, length);
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, p + Integer.BYTES, into, 0, length);
        return length;
    }

    @Override
    public int readBatch(int limit) {
        return oneByOne.read(this, limit);
    }

    @Override
    public long checksum() {
        return oneByOne.checksum();
    }

    @Override
    public boolean moveToIndex(long index) {
        throw new UnsupportedOperationException("the floor has no index");
    }

    @Override
    public void toStart() {
        readPosition[8] = 0;
    }

    @Override
    public void close() {
        arena.close();
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
