package io.cq.benchmarks.latency;

import io.cq.benchmarks.BenchmarkSuite;
import io.cq.benchmarks.Directories;
import io.cq.benchmarks.HistogramCodec;
import io.cq.benchmarks.QueueDriver;
import io.cq.benchmarks.Writeback;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end latency, corrected for coordinated omission: an appender sends 40-byte messages on a fixed
 * schedule, each carrying the {@link System#nanoTime()} at which it <em>should</em> have been sent; a tailer
 * busy-reads and records {@code now - scheduled}. A late appender therefore shows up as latency instead of
 * silently sending fewer messages.
 *
 * <p>Every measurement runs in a fresh JVM (the reader, with the appender as a thread in it, or, across
 * processes, as a second JVM: nanoTime is one monotonic clock for every process of a Linux machine).
 */
public final class LatencyHarness {
    public static final int MESSAGE_SIZE = 40;

    /** What one run measured. */
    public record Result(String implementation, String mode, int rate, int size, Histogram histogram) {
    }

    private LatencyHarness() {
    }

    /** Runs one measurement in a new JVM started with {@code jvmArgs}. */
    public static Result run(String implementation, boolean crossProcess, int rate, int size, int warmupSeconds,
                             int seconds, Path directory, List<String> jvmArgs) throws Exception {
        settle();
        Process reader = startJvm(jvmArgs, "reader", implementation, directory.toString(), Integer.toString(rate),
                Boolean.toString(crossProcess), Integer.toString(warmupSeconds), Integer.toString(seconds),
                Integer.toString(size));
        String histogramLine = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(reader.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("histogram ")) {
                    histogramLine = line.substring("histogram ".length());
                }
            }
        }
        if (!reader.waitFor(120, TimeUnit.SECONDS) || reader.exitValue() != 0 || histogramLine == null) {
            throw new IllegalStateException("latency run of " + implementation + " at " + rate + "/s failed");
        }
        return new Result(implementation, crossProcess ? "2 JVMs" : "1 JVM", rate, size,
                HistogramCodec.decode(histogramLine));
    }

    /**
     * Writes back what earlier runs left dirty (a 1M msgs/s run leaves hundreds of megabytes), and lets the file
     * system's journal and discards finish, so that no run pays for the one before it: measured at 100K msgs/s, a
     * bare mapped file's p99 was 40 µs after a {@code sync} and 0.4-4 ms right after a 1M msgs/s run.
     */
    static void settle() throws InterruptedException {
        Writeback.syncAll();
        // A deliberate pause of the benchmark, not a wait for a condition: for what the sync may leave in flight (this
        // machine mounts with online discard, issued for the files the last run deleted); the runs in
        // docs/performance.md were measured with it.
        Thread.sleep(1_000);
    }

    /**
     * Entry point of the measuring JVMs ({@code reader ...} or {@code appender ...}), and of one measurement run by
     * hand, for A/B runs of two builds on the class path: {@code once <implementation> <two JVMs: true|false>
     * <rate> <warm-up seconds> <seconds>} prints the percentiles in µs. The implementation is a name
     * {@link QueueDriver#open} takes ({@code cq}, {@code chronicle}, {@code floor}, {@code cq-aes} and the other codec
     * variants); a second JVM opens the queue by the same name, so with the same codecs and key.
     */
    public static void main(String[] args) throws Exception {
        if (args[0].equals("once")) {
            Path directory = Files.createTempDirectory("latency-" + args[1]);
            try {
                Histogram h = run(args[1], Boolean.parseBoolean(args[2]), Integer.parseInt(args[3]), MESSAGE_SIZE,
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]), directory,
                        BenchmarkSuite.forkJvmArgs()).histogram();
                System.out.printf(Locale.ROOT,
                        "%s p50 %.2f p90 %.2f p99 %.1f p99.9 %.1f p99.99 %.1f max %.1f%n", args[1],
                        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3,
                        h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
                        h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3);
            } finally {
                Directories.delete(directory);
            }
        } else if (args[0].equals("reader")) {
            Histogram histogram = measure(args[1], Path.of(args[2]), Integer.parseInt(args[3]),
                    Boolean.parseBoolean(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]));
            System.out.println("histogram " + HistogramCodec.encode(histogram));
        } else {
            appendForReader(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]),
                    Integer.parseInt(args[5]));
        }
    }

    private static Histogram measure(String implementation, Path directory, int rate, boolean crossProcess,
                                     int warmupSeconds, int seconds, int size) throws Exception {
        // Reading returns the first 8 bytes plus the length: the appender's priming excerpt (value 0) gives this.
        long priming = size;
        long warmup = (long) rate * warmupSeconds;
        long total = warmup + (long) rate * seconds;
        // Warm-up and measured latencies go to histograms of their own, picked by arithmetic, not by a branch: the
        // JIT compiles a branch never taken during warm-up as a trap, and taking it when measuring starts threw the
        // compiled read loop (the library's read path inlined) away and compiled it again, tens of milliseconds of a
        // core, in the first measured second (docs/performance.md, "What is measured").
        Histogram[] histograms = {new Histogram(TimeUnit.SECONDS.toNanos(60), 3),
                new Histogram(TimeUnit.SECONDS.toNanos(60), 3)};
        try (QueueDriver driver = QueueDriver.open(implementation, directory)) {
            driver.toStart();
            Thread appender = null;
            Process child = null;
            long start;
            if (crossProcess) {
                child = startJvm(ManagementFactory.getRuntimeMXBean().getInputArguments(), "appender", implementation,
                        directory.toString(), Integer.toString(rate), Long.toString(total), Integer.toString(size));
                BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8));
                String line = out.readLine();
                if (line == null || !line.startsWith("ready")) {
                    throw new IllegalStateException("child appender did not start: " + line);
                }
                start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
                in.write(start + "\n");
                in.flush();
            } else {
                start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                long startAt = start;
                appender = Thread.ofPlatform().name("latency-appender").start(() -> {
                    // Appenders belong to the thread that creates them; the priming excerpt creates the files.
                    driver.append(0, new byte[size]);
                    sendOnSchedule(driver, rate, total, startAt, size);
                });
            }
            long received = 0;
            // A sender that died must not leave this reader spinning for ever.
            long deadline = start + TimeUnit.SECONDS.toNanos(warmupSeconds + seconds + 60L);
            while (received < total) {
                long value = driver.read();
                if (value < 0) {
                    Thread.onSpinWait();
                    if ((received & 0xFFF) == 0 && System.nanoTime() > deadline) {
                        throw new IllegalStateException("received only " + received + " of " + total + " messages");
                    }
                    continue;
                }
                if (value == priming) {
                    continue;
                }
                long latency = System.nanoTime() - (value - size);
                // 0 during warm-up, 1 once measuring: the sign bit of (warmup - 1 - received).
                Histogram histogram = histograms[(int) ((warmup - 1 - received) >>> 63)];
                histogram.recordValue(Math.min(Math.max(latency, 0), histogram.getHighestTrackableValue()));
                received++;
            }
            if (appender != null) {
                appender.join();
            }
            if (child != null && !child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        return histograms[1];
    }

    private static void appendForReader(String implementation, Path directory, int rate, long total, int size)
            throws IOException {
        PrintStream out = System.out;
        try (QueueDriver driver = QueueDriver.open(implementation, directory)) {
            driver.append(0, new byte[size]);
            out.println("ready");
            out.flush();
            long start = Long.parseLong(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine());
            sendOnSchedule(driver, rate, total, start, size);
        }
    }

    static void sendOnSchedule(QueueDriver driver, int rate, long total, long start, int size) {
        byte[] payload = new byte[size];
        double interval = 1e9 / rate;
        for (long i = 0; i < total; i++) {
            long scheduled = start + (long) (i * interval);
            while (System.nanoTime() < scheduled) {
                Thread.onSpinWait();
            }
            driver.append(scheduled, payload);
        }
    }

    private static Process startJvm(List<String> jvmArgs, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LatencyHarness.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
