package io.cq.benchmarks.contended;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.HistogramCodec;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Writers contending for one queue: 1, 2 or 4 threads of one JVM, or two JVMs of one thread each, every writer
 * appending as fast as it can. Each excerpt is composed field by field (a long per 8 bytes, each computed), the kind
 * of write that double buffering is for: a writer that finds the lock taken composes its excerpt meanwhile instead of
 * waiting. Measures the total rate and each append's time (writingDocument to close), per writer, merged.
 *
 * <p>Every configuration runs in fresh JVMs (one per process), so the two libraries never share a JIT profile.
 * Implementations: {@code cq}, {@code cq+double-buffer}, {@code chronicle}, {@code chronicle+double-buffer}.
 */
public final class ContendedWriteHarness {
    /** The implementations, in the order the table shows them. */
    public static final List<String> IMPLEMENTATIONS =
            List.of("cq", "cq+double-buffer", "chronicle", "chronicle+double-buffer");
    /** Writer setups: threads of one JVM, or "2 processes". */
    public static final List<String> SETUPS = List.of("1 thread", "2 threads", "4 threads", "2 processes");

    /** One configuration's figures: excerpts per second in all, and each append's time in ns. */
    public record Result(String implementation, String setup, int size, double rate, Histogram appendNanos) {
    }

    private ContendedWriteHarness() {
    }

    /**
     * Runs one configuration.
     *
     * @param perWriter excerpts each writer appends while measured (after as many again to warm up)
     */
    public static Result run(String implementation, String setup, int size, int perWriter, List<String> jvmArgs)
            throws Exception {
        Path directory = Files.createTempDirectory("contended-" + implementation.replace('+', '-'));
        try {
            Path go = directory.resolve("go");
            Path queue = directory.resolve("queue");
            boolean processes = setup.endsWith("processes");
            int jvms = processes ? 2 : 1;
            int threads = processes ? 1 : Integer.parseInt(setup.substring(0, setup.indexOf(' ')));
            List<Process> children = new ArrayList<>();
            List<BufferedReader> outputs = new ArrayList<>();
            for (int i = 0; i < jvms; i++) {
                Process child = WriterJvms.start(jvmArgs, ContendedWriteHarness.class,
                        ProcessBuilder.Redirect.INHERIT,
                        implementation, queue.toString(), Integer.toString(threads),
                        Integer.toString(perWriter), Integer.toString(size), go.toString());
                children.add(child);
                outputs.add(new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader output : outputs) {
                WriterJvms.expect(output, "ready");
            }
            Files.createFile(go);
            Histogram merged = new Histogram(3);
            long excerpts = 0;
            long firstStart = Long.MAX_VALUE;
            long lastEnd = Long.MIN_VALUE;
            for (BufferedReader output : outputs) {
                String[] result = WriterJvms.expect(output, "result").split(" ");
                excerpts += Long.parseLong(result[1]);
                // Wall-clock epoch nanos, comparable across the JVMs of one machine.
                firstStart = Math.min(firstStart, Long.parseLong(result[2]));
                lastEnd = Math.max(lastEnd, Long.parseLong(result[3]));
                merged.add(HistogramCodec.decode(result[4]));
            }
            for (Process child : children) {
                if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
                    child.destroyForcibly();
                    throw new IllegalStateException(implementation + " " + setup + ": a writer JVM failed");
                }
            }
            return new Result(implementation, setup, size, excerpts * 1e9 / (lastEnd - firstStart), merged);
        } finally {
            Directories.delete(directory);
        }
    }

    /** A writer JVM: {@code implementation directory threads perWriter size go-file}. */
    public static void main(String[] args) throws Exception {
        String implementation = args[0];
        Path directory = Path.of(args[1]);
        int threads = Integer.parseInt(args[2]);
        int perWriter = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        Path go = Path.of(args[5]);
        try (Writers writers = Writers.open(implementation, directory)) {
            CountDownLatch warmedUp = new CountDownLatch(threads);
            Histogram[] histograms = new Histogram[threads];
            long[] ends = new long[threads];
            long[] starts = new long[threads];
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int writer = t;
                histograms[t] = new Histogram(3);
                running.add(Thread.ofPlatform().name("writer-" + t).start(() -> {
                    Writer append = writers.newWriter();
                    for (int i = 0; i < perWriter; i++) {
                        append.write(i, size);
                    }
                    warmedUp.countDown();
                    while (!Files.exists(go)) {
                        LockSupport.parkNanos(100_000);
                    }
                    starts[writer] = epochNanos();
                    for (int i = 0; i < perWriter; i++) {
                        long begin = System.nanoTime();
                        append.write(i, size);
                        histograms[writer].recordValue(System.nanoTime() - begin);
                    }
                    ends[writer] = epochNanos();
                    append.close();
                }));
            }
            warmedUp.await();
            System.out.println("ready");
            for (Thread thread : running) {
                thread.join();
            }
            WriterJvms.Merged merged = WriterJvms.Merged.of(histograms, starts, ends);
            System.out.println("result " + (long) threads * perWriter + " " + merged.start() + " " + merged.end()
                    + " " + HistogramCodec.encode(merged.histogram()));
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** One thread's appender. */
    private interface Writer extends AutoCloseable {
        /** Appends one excerpt of {@code size} bytes, composed a long at a time. */
        void write(long value, int size);

        @Override
        void close();
    }

    /** One queue of one implementation, shared by a JVM's writer threads. */
    private interface Writers extends AutoCloseable {
        Writer newWriter();

        @Override
        void close();

        static Writers open(String implementation, Path directory) {
            return switch (implementation) {
                case "cq" -> new CqWriters(directory, false);
                case "cq+double-buffer" -> new CqWriters(directory, true);
                case "chronicle" -> new ChronicleWriters(directory, false);
                case "chronicle+double-buffer" -> new ChronicleWriters(directory, true);
                default -> throw new IllegalArgumentException("implementation=" + implementation + " must be one of "
                        + IMPLEMENTATIONS);
            };
        }
    }

    /** The value of the {@code i}-th long of excerpt {@code value}: a little arithmetic per field, as encoders do. */
    private static long field(long value, int i) {
        long x = value * 0x9E3779B97F4A7C15L + i;
        return x ^ (x >>> 29);
    }

    private static final class CqWriters implements Writers {
        private final MappedQueue queue;

        CqWriters(Path directory, boolean doubleBuffer) {
            this.queue = MappedQueue.builder(directory).rollCycle(RollCycle.DAILY).doubleBuffer(doubleBuffer).build();
        }

        @Override
        public Writer newWriter() {
            ExcerptAppender appender = queue.createAppender();
            return new Writer() {
                @Override
                public void write(long value, int size) {
                    try (WriteContext dc = appender.writingDocument()) {
                        for (int i = 0; i < size / 8; i++) {
                            dc.bytes().writeLong(field(value, i));
                        }
                    }
                }

                @Override
                public void close() {
                    appender.close();
                }
            };
        }

        @Override
        public void close() {
            queue.close();
        }
    }

    private static final class ChronicleWriters implements Writers {
        private final SingleChronicleQueue queue;

        ChronicleWriters(Path directory, boolean doubleBuffer) {
            this.queue = SingleChronicleQueueBuilder.single(directory.toString()).rollCycle(RollCycles.FAST_DAILY)
                    .doubleBuffer(doubleBuffer).build();
        }

        @Override
        public Writer newWriter() {
            net.openhft.chronicle.queue.ExcerptAppender appender = queue.createAppender();
            return new Writer() {
                @Override
                public void write(long value, int size) {
                    try (DocumentContext dc = appender.writingDocument()) {
                        Bytes<?> bytes = dc.wire().bytes();
                        for (int i = 0; i < size / 8; i++) {
                            bytes.writeLong(field(value, i));
                        }
                    }
                }

                @Override
                public void close() {
                    appender.close();
                }
            };
        }

        @Override
        public void close() {
            queue.close();
        }
    }

    /** Runs every configuration once, each setup for every implementation in turn. */
    public static List<Result> runAll(int size, int perWriter, List<String> jvmArgs) throws Exception {
        List<Result> results = new ArrayList<>();
        for (String setup : SETUPS) {
            for (String implementation : IMPLEMENTATIONS) {
                results.add(run(implementation, setup, size, perWriter, jvmArgs));
            }
        }
        return results;
    }
}
