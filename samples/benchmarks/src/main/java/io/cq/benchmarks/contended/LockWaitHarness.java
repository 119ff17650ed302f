package io.cq.benchmarks.contended;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.HistogramCodec;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How long writers wait for the write lock, and how many appends get through, from a few platform threads to a burst
 * of virtual threads (docs/file-format.md, "Waiting in line"). The wait is the time {@code writingDocument()} takes to
 * return: the lock, and what an appender does under it before the excerpt can be written. Excerpts are 64 bytes.
 *
 * <p>Setups: {@code N threads} (platform threads of one JVM, each with its own appender, appending as fast as they
 * can), {@code 1 thread, appender per append} (make an appender, append once, close it, in a loop), {@code N virtual
 * threads} (a burst: each virtual thread makes an appender, appends once and closes it, all started at once) and
 * {@code 2 processes} (one thread each). Each configuration runs in fresh JVMs; a failed append (a lock timeout) is
 * counted, and a JVM that has not finished after {@link #CHILD_TIMEOUT_SECONDS} is stopped and reported as such.
 */
public final class LockWaitHarness {
    public static final List<String> IMPLEMENTATIONS = List.of("cq", "chronicle");
    public static final List<String> SETUPS = List.of("1 thread", "2 threads", "4 threads", "64 threads",
            "1 thread, appender per append", "10000 virtual threads", "200000 virtual threads", "2 processes");
    public static final long CHILD_TIMEOUT_SECONDS = 180;
    private static final int SIZE = 64;

    /**
     * One configuration's figures: appends that succeeded and failed, their rate, each wait in ns; {@code finished}
     * false when a JVM had to be stopped; the lines the writer JVMs printed on standard error (warnings).
     */
    public record Result(String implementation, String setup, long appends, long failures, double rate,
                         Histogram waitNanos, boolean finished, long stderrLines) {
    }

    private LockWaitHarness() {
    }

    /**
     * Runs one configuration.
     *
     * @param perWriter appends per platform thread, measured after as many again to warm up
     */
    public static Result run(String implementation, String setup, int perWriter, List<String> jvmArgs)
            throws Exception {
        Path directory = Files.createTempDirectory("lock-wait-" + implementation);
        try {
            Path go = directory.resolve("go");
            Path queue = directory.resolve("queue");
            boolean processes = setup.endsWith("processes");
            String kind = setup.contains("virtual") ? "virtual" : setup.contains("per append") ? "per-append"
                    : "platform";
            int threads = processes || kind.equals("per-append") ? 1
                    : Integer.parseInt(setup.substring(0, setup.indexOf(' ')));
            List<Process> children = new ArrayList<>();
            List<BufferedReader> outputs = new ArrayList<>();
            for (int i = 0; i < (processes ? 2 : 1); i++) {
                Process child = WriterJvms.start(jvmArgs, LockWaitHarness.class,
                        ProcessBuilder.Redirect.to(directory.resolve("stderr-" + i).toFile()), implementation,
                        queue.toString(), kind, Integer.toString(threads), Integer.toString(perWriter), go.toString());
                children.add(child);
                outputs.add(new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader output : outputs) {
                WriterJvms.expect(output, "ready");
            }
            Files.createFile(go);
            Histogram merged = new Histogram(3);
            long appends = 0;
            long failures = 0;
            long firstStart = Long.MAX_VALUE;
            long lastEnd = Long.MIN_VALUE;
            boolean finished = true;
            for (int i = 0; i < children.size(); i++) {
                Process child = children.get(i);
                if (!child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                    finished = false;
                    continue;
                }
                String[] result = WriterJvms.expect(outputs.get(i), "result").split(" ");
                appends += Long.parseLong(result[1]);
                failures += Long.parseLong(result[2]);
                firstStart = Math.min(firstStart, Long.parseLong(result[3]));
                lastEnd = Math.max(lastEnd, Long.parseLong(result[4]));
                merged.add(HistogramCodec.decode(result[5]));
            }
            double rate = finished ? appends * 1e9 / Math.max(1, lastEnd - firstStart) : 0;
            long stderrLines = 0;
            for (int i = 0; i < children.size(); i++) {
                try (var lines = Files.lines(directory.resolve("stderr-" + i))) {
                    stderrLines += lines.count();
                }
            }
            return new Result(implementation, setup, appends, failures, rate, merged, finished, stderrLines);
        } finally {
            Directories.delete(directory);
        }
    }

    /** Runs every configuration once, each setup for every implementation in turn. */
    public static List<Result> runAll(int perWriter, List<String> jvmArgs) throws Exception {
        List<Result> results = new ArrayList<>();
        for (String setup : SETUPS) {
            for (String implementation : IMPLEMENTATIONS) {
                results.add(run(implementation, setup, perWriter, jvmArgs));
            }
        }
        return results;
    }

    /** A writer JVM: {@code implementation directory kind threads perWriter go-file}. */
    public static void main(String[] args) throws Exception {
        String implementation = args[0];
        Path directory = Path.of(args[1]);
        String kind = args[2];
        int threads = Integer.parseInt(args[3]);
        int perWriter = Integer.parseInt(args[4]);
        Path go = Path.of(args[5]);
        try (Queue queue = Queue.open(implementation, directory)) {
            Measured measured = switch (kind) {
                case "platform" -> platformThreads(queue, threads, perWriter, go);
                case "per-append" -> appenderPerAppend(queue, perWriter / 4, go);
                case "virtual" -> virtualThreads(queue, threads, go);
                default -> throw new IllegalArgumentException("kind=" + kind);
            };
            System.out.println("result " + measured.appends + " " + measured.failures + " " + measured.start + " "
                    + measured.end + " " + HistogramCodec.encode(measured.waits));
        }
    }

    private record Measured(long appends, long failures, long start, long end, Histogram waits) {
    }

    private static Measured platformThreads(Queue queue, int threads, int perWriter, Path go) throws Exception {
        CountDownLatch warmedUp = new CountDownLatch(threads);
        Histogram[] histograms = new Histogram[threads];
        long[] starts = new long[threads];
        long[] ends = new long[threads];
        AtomicLong failures = new AtomicLong();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int writer = t;
            histograms[t] = new Histogram(3);
            running.add(Thread.ofPlatform().name("writer-" + t).start(() -> {
                try (Appender appender = queue.newAppender()) {
                    for (int i = 0; i < perWriter; i++) {
                        appender.append(i, null);
                    }
                    warmedUp.countDown();
                    awaitGo(go);
                    starts[writer] = System.nanoTime();
                    for (int i = 0; i < perWriter; i++) {
                        try {
                            appender.append(i, histograms[writer]);
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                        }
                    }
                    ends[writer] = System.nanoTime();
                }
            }));
        }
        warmedUp.await();
        System.out.println("ready");
        for (Thread thread : running) {
            thread.join();
        }
        WriterJvms.Merged merged = WriterJvms.Merged.of(histograms, starts, ends);
        return new Measured((long) threads * perWriter - failures.get(), failures.get(), toEpoch(merged.start()),
                toEpoch(merged.end()), merged.histogram());
    }

    private static Measured appenderPerAppend(Queue queue, int appends, Path go) throws Exception {
        Histogram waits = new Histogram(3);
        for (int i = 0; i < appends; i++) {
            try (Appender appender = queue.newAppender()) {
                appender.append(i, null);
            }
        }
        System.out.println("ready");
        awaitGo(go);
        long start = System.nanoTime();
        for (int i = 0; i < appends; i++) {
            // The whole of it is what a caller pays: make, append, close.
            long begin = System.nanoTime();
            try (Appender appender = queue.newAppender()) {
                appender.append(i, null);
            }
            waits.recordValue(System.nanoTime() - begin);
        }
        long end = System.nanoTime();
        return new Measured(appends, 0, toEpoch(start), toEpoch(end), waits);
    }

    private static Measured virtualThreads(Queue queue, int threads, Path go) throws Exception {
        // Warms the path up with a smaller burst, as a service has by the time a spike comes.
        burst(queue, Math.min(threads, 2_000), new Histogram(3), new AtomicLong());
        System.out.println("ready");
        awaitGo(go);
        Histogram waits = new Histogram(3);
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        burst(queue, threads, waits, failures);
        long end = System.nanoTime();
        return new Measured(threads - failures.get(), failures.get(), toEpoch(start), toEpoch(end), waits);
    }

    private static void burst(Queue queue, int threads, Histogram waits, AtomicLong failures) {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < threads; i++) {
                long value = i;
                executor.submit(() -> {
                    try (Appender appender = queue.newAppender()) {
                        appender.append(value, waits);
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                    }
                });
            }
        }
    }

    private static void awaitGo(Path go) {
        while (!Files.exists(go)) {
            LockSupport.parkNanos(100_000);
        }
    }

    /** Monotonic nanos as wall-clock epoch nanos, comparable across the JVMs of one machine. */
    private static long toEpoch(long nanoTime) {
        return System.currentTimeMillis() * 1_000_000L + (nanoTime - System.nanoTime());
    }

    /** One thread's appender; records into a histogram (synchronized: virtual threads share one) unless null. */
    private interface Appender extends AutoCloseable {
        void append(long value, Histogram waits);

        @Override
        void close();
    }

    private interface Queue extends AutoCloseable {
        Appender newAppender();

        @Override
        void close();

        static Queue open(String implementation, Path directory) {
            return switch (implementation) {
                case "cq" -> new CqQueue(directory);
                case "chronicle" -> new ChronicleQueue(directory);
                default -> throw new IllegalArgumentException("implementation=" + implementation + " must be one of "
                        + IMPLEMENTATIONS);
            };
        }
    }

    private static void record(Histogram waits, long nanos) {
        if (waits != null) {
            synchronized (waits) {
                waits.recordValue(nanos);
            }
        }
    }

    private static final class CqQueue implements Queue {
        private final MappedQueue queue;

        CqQueue(Path directory) {
            this.queue = MappedQueue.builder(directory).rollCycle(RollCycle.DAILY).build();
        }

        @Override
        public Appender newAppender() {
            ExcerptAppender appender = queue.createAppender();
            return new Appender() {
                @Override
                public void append(long value, Histogram waits) {
                    long begin = System.nanoTime();
                    long acquired;
                    try (WriteContext dc = appender.writingDocument()) {
                        acquired = System.nanoTime();
                        for (int i = 0; i < SIZE / 8; i++) {
                            dc.bytes().writeLong(value + i);
                        }
                    }
                    // Recorded after the release: the lock is held no longer than the append needs.
                    record(waits, acquired - begin);
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

    private static final class ChronicleQueue implements Queue {
        private final SingleChronicleQueue queue;

        ChronicleQueue(Path directory) {
            this.queue = SingleChronicleQueueBuilder.single(directory.toString()).rollCycle(RollCycles.FAST_DAILY)
                    .build();
        }

        @Override
        public Appender newAppender() {
            net.openhft.chronicle.queue.ExcerptAppender appender = queue.createAppender();
            return new Appender() {
                @Override
                public void append(long value, Histogram waits) {
                    long begin = System.nanoTime();
                    long acquired;
                    try (DocumentContext dc = appender.writingDocument()) {
                        acquired = System.nanoTime();
                        for (int i = 0; i < SIZE / 8; i++) {
                            dc.wire().bytes().writeLong(value + i);
                        }
                    }
                    record(waits, acquired - begin);
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
}
