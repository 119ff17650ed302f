package io.cq.benchmarks.stall;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.HistogramCodec;
import io.cq.benchmarks.QueueDriver;
import io.cq.benchmarks.Writeback;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Append latency while storage stalls (docs/performance.md, "Async mode under a storage stall"): one thread appends
 * at a fixed rate while another writes large files to the same file system (200 MB/s) and calls {@code sync()} every
 * 64 MiB, as a database checkpoint or a backup does: every dirty page of the machine, the queue's included, is written
 * back again and again, so a write to a file page waits for writeback and the journal. Latency is
 * taken from when each append was due, not from when it started, so a stall counts for every append it delayed
 * (coordinated omission corrected). Each
 * implementation runs in a JVM of its own: cq, cq in async mode (its buffer in /dev/shm), and Chronicle Queue.
 */
public final class StorageStallHarness {
    /** What one run measured. */
    public record Result(String implementation, int rate, int size, Histogram histogram, long stallBytes) {
    }

    /** The options of this JVM that the measuring JVM takes too (docs/performance.md). */
    private static final List<String> FORWARDED = List.of("cq.bench.stall", "cq.bench.stallMBps",
            "cq.bench.asyncBufferSize", "cq.bench.asyncDrain");
    private static final int CHUNK = 1 << 20;
    private static final long FORCE_EVERY = 64L << 20;
    private static final long FILE_SIZE = 512L << 20;

    private StorageStallHarness() {
    }

    /** Runs one implementation in a new JVM; the queue and the stall's files go under {@code directory}. */
    public static Result run(String implementation, int rate, int size, int warmupSeconds, int seconds,
                             Path directory, List<String> jvmArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        for (String option : FORWARDED) {
            if (System.getProperty(option) != null) {
                command.add("-D" + option + "=" + System.getProperty(option));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StorageStallHarness.class.getName(),
                implementation, directory.toString(), Integer.toString(rate), Integer.toString(size),
                Integer.toString(warmupSeconds), Integer.toString(seconds)));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String histogram = null;
        long stallBytes = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("histogram ")) {
                    histogram = line.substring("histogram ".length());
                } else if (line.startsWith("stall ")) {
                    stallBytes = Long.parseLong(line.substring("stall ".length()));
                }
            }
        }
        if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0 || histogram == null) {
            throw new IllegalStateException("storage-stall run of " + implementation + " failed");
        }
        return new Result(implementation, rate, size, HistogramCodec.decode(histogram), stallBytes);
    }

    /** Entry point of the measuring JVM: implementation, directory, rate, size, warm-up and measured seconds. */
    public static void main(String[] args) throws Exception {
        String implementation = args[0];
        Path directory = Path.of(args[1]);
        int rate = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        int warmupSeconds = Integer.parseInt(args[4]);
        int seconds = Integer.parseInt(args[5]);
        Path queueDirectory = directory.resolve("queue");
        Path stallDirectory = Files.createDirectories(directory.resolve("stall"));
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        StallWriter stall = new StallWriter(stallDirectory);
        // -Dcq.bench.stall=false measures the same appends on a quiet disk, for comparison.
        stall.stop = !Boolean.parseBoolean(System.getProperty("cq.bench.stall", "true"));
        Thread stallThread = Thread.ofPlatform().daemon().name("storage-stall").start(stall);
        try (QueueDriver driver = implementation.equals("none") ? new NoQueue() : QueueDriver.open(implementation,
                queueDirectory)) {
            byte[] payload = new byte[size];
            appendOnSchedule(driver, payload, rate, (long) warmupSeconds * rate, null);
            appendOnSchedule(driver, payload, rate, (long) seconds * rate, histogram);
        } finally {
            stall.stop = true;
            stallThread.join();
            Directories.delete(stallDirectory);
        }
        System.out.println("stall " + stall.written);
        System.out.println("histogram " + HistogramCodec.encode(histogram));
    }

    private static void appendOnSchedule(QueueDriver driver, byte[] payload, int rate, long total,
                                         Histogram histogram) {
        double interval = 1e9 / rate;
        long start = System.nanoTime();
        for (long i = 0; i < total; i++) {
            long due = start + (long) (i * interval);
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
            }
            driver.append(due, payload);
            if (histogram != null) {
                histogram.recordValue(Math.min(System.nanoTime() - due, histogram.getHighestTrackableValue()));
            }
        }
    }

    /** Appends nowhere: what the machine itself adds to an append's latency under the stall (threads preempted). */
    private static final class NoQueue implements QueueDriver {
        private long sum;

        @Override
        public long append(long value, byte[] payload) {
            sum += value + payload.length;
            return sum;
        }

        @Override
        public long read() {
            return -1;
        }

        @Override
        public int readCopy(byte[] into) {
            return -1;
        }

        @Override
        public int readBatch(int limit) {
            return 0;
        }

        @Override
        public long checksum() {
            return sum;
        }

        @Override
        public boolean moveToIndex(long index) {
            return false;
        }

        @Override
        public void toStart() {
        }

        @Override
        public void close() {
        }
    }

    /**
     * Writes 512 MiB files of random bytes in 1 MiB writes at {@code cq.bench.stallMBps} (200 MB/s by default),
     * calling {@code sync()} every 64 MiB, until stopped; keeps two. Paced, so that it keeps the disk and the journal
     * busy without taking a whole core from the appender on a small machine: the stall measured is storage's, not the
     * scheduler's.
     */
    private static final class StallWriter implements Runnable {
        private final long nanosPerChunk = 1_000_000_000L / Math.max(1, Integer.getInteger("cq.bench.stallMBps", 200));
        private final Path directory;
        volatile boolean stop;
        volatile long written;

        StallWriter(Path directory) {
            this.directory = directory;
        }

        @Override
        public void run() {
            byte[] random = new byte[CHUNK];
            ThreadLocalRandom.current().nextBytes(random);
            ByteBuffer chunk = ByteBuffer.wrap(random);
            long next = System.nanoTime();
            try {
                for (int file = 0; !stop; file++) {
                    Path path = directory.resolve("stall-" + file);
                    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                        for (long at = 0; at < FILE_SIZE && !stop; at += CHUNK) {
                            chunk.clear();
                            channel.write(chunk, at);
                            written += CHUNK;
                            next += nanosPerChunk;
                            long wait = next - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait);
                            }
                            if ((at + CHUNK) % FORCE_EVERY == 0) {
                                Writeback.syncAll();
                            }
                        }
                    }
                    Files.deleteIfExists(directory.resolve("stall-" + (file - 1)));
                }
            } catch (IOException e) {
                throw new IllegalStateException("the stall writer failed", e);
            }
        }
    }
}
