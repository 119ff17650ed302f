package io.cq.benchmarks;

import io.cq.benchmarks.contended.ContendedWriteHarness;
import io.cq.benchmarks.contended.ContentionTables;
import io.cq.benchmarks.contended.LockWaitHarness;
import io.cq.benchmarks.latency.LatencyHarness;
import io.cq.benchmarks.listener.ListenerHarness;
import io.cq.benchmarks.stall.StorageStallHarness;
import io.cq.benchmarks.startup.StartupHarness;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Collects the suite's results and renders them as Markdown tables, cq and Chronicle Queue side by side. */
final class Report {
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private final String mode;
    private final List<String> jvmArgs;
    private final StringBuilder sections = new StringBuilder();
    private int stallRows;
    private final Map<String, List<LatencyHarness.Result>> latencies = new LinkedHashMap<>();
    private final Map<String, List<LatencyHarness.Result>> pretouches = new LinkedHashMap<>();
    private final Map<String, List<StartupHarness.Result>> startups = new TreeMap<>();
    private final Map<String, List<Long>> cliTail = new TreeMap<>();
    private final Map<String, List<ListenerHarness.Result>> listenerThroughput = new TreeMap<>();
    private final Map<String, List<ListenerHarness.Result>> listenerLatency = new TreeMap<>();
    private final List<Path> plotFiles = new ArrayList<>();

    Report(String mode, List<String> jvmArgs) {
        this.mode = mode;
        this.jvmArgs = jvmArgs;
    }

    void throughput(String title, String unit, Collection<RunResult> results) {
        Map<Integer, Map<String, RunResult>> bySize = new TreeMap<>();
        for (RunResult result : results) {
            bySize.computeIfAbsent(Integer.parseInt(result.getParams().getParam("size")), k -> new TreeMap<>())
                    .put(result.getParams().getParam("implementation"), result);
        }
        sections.append("\n### ").append(title).append(" (one thread, ").append(unit).append(")\n\n");
        sections.append("| size | cq median [min-max] | Chronicle median [min-max] | cq / Chronicle | cq MB/s | "
                + "Chronicle MB/s "
                + "| cq B/op | Chronicle B/op |\n|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<Integer, Map<String, RunResult>> row : bySize.entrySet()) {
            int size = row.getKey();
            Statistics cq = stats(row.getValue().get("cq"));
            Statistics chronicle = stats(row.getValue().get("chronicle"));
            sections.append(String.format(Locale.ROOT, "| %d B | %s | %s | %s | %.0f | %.0f | %s | %s |%n", size,
                    spread(cq), spread(chronicle), ratio(median(cq), median(chronicle)),
                    median(cq) * size / 1e6, median(chronicle) * size / 1e6,
                    allocation(row.getValue().get("cq")), allocation(row.getValue().get("chronicle"))));
        }
    }

    /** A section rendered elsewhere ({@link CodecSection}), in the order the sections ran. */
    void markdown(String section) {
        sections.append(section);
    }

    /**
     * One table for the three benchmarks of {@code MethodMessageBenchmark}: writing only, reading only, and both per
     * operation, one row per operation and message type.
     */
    void messages(Collection<RunResult> results) {
        Map<String, Map<String, Map<String, RunResult>>> byOperation = new TreeMap<>(
                Comparator.comparingInt(Report::operationOrder).thenComparing(o -> o));
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            byOperation.computeIfAbsent(benchmark.substring(benchmark.lastIndexOf('.') + 1), k -> new TreeMap<>())
                    .computeIfAbsent(result.getParams().getParam("message"), k -> new TreeMap<>())
                    .put(result.getParams().getParam("implementation"), result);
        }
        sections.append("\n### Method writers and readers, one thread (messages/s; writeAndRead: one message written "
                + "and read back per operation)\n\n");
        sections.append("| operation | message | cq median [min-max] | Chronicle median [min-max] | cq / Chronicle "
                + "| cq B/op | Chronicle B/op |\n"
                + "|---|---|---|---|---|---|---|\n");
        byOperation.forEach((operation, byMessage) -> byMessage.forEach((message, byImplementation) -> {
            Statistics cq = stats(byImplementation.get("cq"));
            Statistics chronicle = stats(byImplementation.get("chronicle"));
            sections.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", operation, message,
                    spread(cq), spread(chronicle), ratio(median(cq), median(chronicle)),
                    allocation(byImplementation.get("cq")), allocation(byImplementation.get("chronicle"))));
        }));
    }

    /** Write, read, then both: the order in which the table reads best. */
    private static int operationOrder(String operation) {
        return switch (operation) {
            case "write" -> 0;
            case "read" -> 1;
            default -> 2;
        };
    }

    void seek(Collection<RunResult> results) {
        Map<String, Statistics> byImplementation = new TreeMap<>();
        for (RunResult result : results) {
            byImplementation.put(result.getParams().getParam("implementation"),
                    result.getPrimaryResult().getStatistics());
        }
        Statistics cq = byImplementation.get("cq");
        Statistics chronicle = byImplementation.get("chronicle");
        sections.append("\n### Random access: moveToIndex in a queue of 10M 40-byte excerpts (ns)\n\n");
        sections.append("| percentile | cq | Chronicle | Chronicle / cq (times faster) |\n|---|---|---|---|\n");
        for (double p : new double[] {50, 99}) {
            double a = cq == null ? Double.NaN : cq.getPercentile(p);
            double b = chronicle == null ? Double.NaN : chronicle.getPercentile(p);
            sections.append(String.format(Locale.ROOT, "| p%s | %.0f | %.0f | %s |%n", trim(p), a, b, ratio(b, a)));
        }
    }

    /** Writers contending for one queue: a table per setup, the implementations side by side. */
    void contended(List<ContendedWriteHarness.Result> results) {
        sections.append(ContentionTables.contended(results));
    }

    /** Waits for the write lock, from a few platform threads to a burst of virtual threads. */
    void lockWait(List<LockWaitHarness.Result> results) {
        sections.append(ContentionTables.lockWait(results));
    }

    /** Append latency under a storage stall, one row per implementation and run. */
    void stall(StorageStallHarness.Result result) {
        if (stallRows == 0) {
            sections.append("\n### Async mode under a storage stall: append latency at ")
                    .append(BenchmarkSuite.format(result.rate())).append("/s of ").append(result.size())
                    .append("-byte excerpts while another thread writes and forces 512 MiB files, coordinated "
                            + "omission corrected (µs)\n\n");
            sections.append("| implementation | p50 | p99 | p99.9 | p99.99 | max | stall bytes written |\n"
                    + "|---|---|---|---|---|---|---|\n");
        }
        stallRows++;
        sections.append("| ").append(result.implementation()).append(" |");
        for (double p : new double[] {50, 99, 99.9, 99.99}) {
            sections.append(String.format(Locale.ROOT, " %.2f |", result.histogram().getValueAtPercentile(p) / 1e3));
        }
        sections.append(String.format(Locale.ROOT, " %.1f | %d MiB |%n", result.histogram().getMaxValue() / 1e3,
                result.stallBytes() >> 20));
    }

    void latency(LatencyHarness.Result result) {
        latencies.computeIfAbsent(result.mode() + "|" + result.rate(), k -> new ArrayList<>()).add(result);
    }

    void pretouch(LatencyHarness.Result result) {
        pretouches.computeIfAbsent(result.mode() + "|" + result.rate(), k -> new ArrayList<>()).add(result);
    }

    void listener(ListenerHarness.Result result, boolean latency) {
        (latency ? listenerLatency : listenerThroughput).computeIfAbsent(result.consumer(), k -> new ArrayList<>())
                .add(result);
    }

    /** Percentile plots written for the latency sections, linked from the report. */
    void plots(List<Path> files) {
        plotFiles.addAll(files);
    }

    List<Path> plotFiles() {
        return List.copyOf(plotFiles);
    }

    void cliTailReady(String setup, long nanos) {
        cliTail.computeIfAbsent(setup, k -> new ArrayList<>()).add(nanos);
    }

    void startup(String implementation, StartupHarness.Result result) {
        startups.computeIfAbsent(implementation, k -> new ArrayList<>()).add(result);
    }

    /** The report as Markdown; {@code reportDirectory} is where it will be, for links to the plots. */
    String render(Path reportDirectory) {
        StringBuilder out = new StringBuilder();
        out.append("## cq vs Chronicle Queue (").append(mode).append(" mode)\n\n");
        out.append("- machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
                .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
                .append(' ').append(System.getProperty("os.arch")).append('\n');
        out.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ').append(Runtime.version())
                .append('\n');
        out.append("- forked JVM flags: `").append(String.join(" ", jvmArgs)).append("`\n");
        out.append("- Chronicle Queue: ").append(ChronicleDriver.VERSION).append('\n');
        out.append(sections);
        renderLatency(out, "End-to-end latency, 40-byte messages, coordinated omission corrected (µs)", latencies);
        renderLatency(out, "Pretoucher: latency at 250K/s of 32-byte messages, one JVM (µs)", pretouches);
        renderPlots(out, reportDirectory);
        renderListener(out);
        renderStartup(out);
        return out.toString();
    }

    private static void renderLatency(StringBuilder out, String title, Map<String,
            List<LatencyHarness.Result>> latencies) {
        if (latencies.isEmpty()) {
            return;
        }
        out.append("\n### ").append(title).append("\n\n");
        out.append("Each cell: median over runs, [min-max] when there were several.\n\n");
        out.append("| setup | rate | implementation | p50 | p90 | p99 | p99.9 | p99.99 | max "
                + "|\n|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<LatencyHarness.Result>> group : latencies.entrySet()) {
            Map<String, List<LatencyHarness.Result>> byImplementation = new TreeMap<>();
            for (LatencyHarness.Result result : group.getValue()) {
                byImplementation.computeIfAbsent(result.implementation(), k -> new ArrayList<>()).add(result);
            }
            for (Map.Entry<String, List<LatencyHarness.Result>> row : byImplementation.entrySet()) {
                LatencyHarness.Result first = row.getValue().getFirst();
                out.append(String.format(Locale.ROOT, "| %s | %s/s | %s |", first.mode(),
                        BenchmarkSuite.format(first.rate()),
                        row.getKey()));
                for (double p : PERCENTILES) {
                    out.append(' ').append(micros(row.getValue(), p)).append(" |");
                }
                out.append(' ').append(micros(row.getValue(), 100)).append(" |\n");
            }
        }
    }

    static String micros(List<LatencyHarness.Result> runs, double percentile) {
        double[] values = runs.stream().mapToDouble(r -> (percentile >= 100 ? r.histogram().getMaxValue()
                : r.histogram().getValueAtPercentile(percentile)) / 1_000.0).sorted().toArray();
        String median = micros(values[values.length / 2]);
        return values.length == 1 ? median
                : median + " [" + micros(values[0]) + "-" + micros(values[values.length - 1]) + "]";
    }

    /** Two decimals below 10 µs, where medians of a few hundred nanoseconds differ in the second. */
    private static String micros(double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.2f" : "%.1f", value);
    }

    private void renderPlots(StringBuilder out, Path reportDirectory) {
        if (plotFiles.isEmpty()) {
            return;
        }
        out.append("\n### Latency by percentile (SVG)\n\n");
        for (Path file : plotFiles) {
            String link = reportDirectory.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
            out.append("![").append(file.getFileName()).append("](").append(link).append(")\n\n");
        }
    }

    private void renderListener(StringBuilder out) {
        if (listenerThroughput.isEmpty() && listenerLatency.isEmpty()) {
            return;
        }
        out.append("\n### @QueueListener (Spring Boot starter) against a raw named tailer with a method reader, "
                + "self-written messages\n\n");
        out.append("Throughput: 2M messages written ahead, read as fast as possible. Latency: 100K/s, coordinated "
                + "omission "
                + "corrected, both consumers backing off when idle (the container's default). Median over runs, "
                + "[min-max].\n\n");
        out.append("| consumer | messages/s | B/message | p50 (µs) | p99 (µs) | p99.9 (µs) | max (µs) "
                + "|\n|---|---|---|---|---|---|---|\n");
        for (String consumer : new String[] {"raw", "listener"}) {
            List<ListenerHarness.Result> throughput = listenerThroughput.getOrDefault(consumer, List.of());
            List<ListenerHarness.Result> latency = listenerLatency.getOrDefault(consumer, List.of());
            out.append("| ").append(consumer.equals("raw") ? "raw named tailer" : "@QueueListener").append(" | ")
                    .append(medianSpread(throughput.stream().mapToDouble(ListenerHarness.Result::messagesPerSecond)
                    .toArray(), true))
                    .append(" | ")
                    .append(medianSpread(throughput.stream().mapToDouble(ListenerHarness.Result::bytesPerMessage)
                    .toArray(), false))
                    .append(" | ")
                    .append(medianSpread(latency.stream().mapToDouble(r -> r.p50() / 1e3).toArray(), false))
                    .append(" | ")
                    .append(medianSpread(latency.stream().mapToDouble(r -> r.p99() / 1e3).toArray(), false))
                    .append(" | ")
                    .append(medianSpread(latency.stream().mapToDouble(r -> r.p999() / 1e3).toArray(), false))
                    .append(" | ")
                    .append(medianSpread(latency.stream().mapToDouble(r -> r.max() / 1e3).toArray(), false))
                    .append(" |\n");
        }
    }

    private static String medianSpread(double[] values, boolean rate) {
        if (values.length == 0) {
            return "-";
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        String median = rate ? BenchmarkSuite.format(sorted[sorted.length / 2])
                : String.format(Locale.ROOT, "%.2f", sorted[sorted.length / 2]);
        if (sorted.length == 1) {
            return median;
        }
        return rate ? median + " [" + BenchmarkSuite.format(sorted[0]) + "-"
                + BenchmarkSuite.format(sorted[sorted.length - 1]) + "]"
                : median + String.format(Locale.ROOT, " [%.2f-%.2f]", sorted[0], sorted[sorted.length - 1]);
    }

    private void renderStartup(StringBuilder out) {
        if (startups.isEmpty()) {
            return;
        }
        out.append("\n### Time to the first appended excerpt (ms), median [min-max]\n\n");
        out.append("| implementation | process start to first excerpt | main() to first excerpt |\n|---|---|---|\n");
        for (Map.Entry<String, List<StartupHarness.Result>> row : startups.entrySet()) {
            out.append("| ").append(row.getKey()).append(" | ")
                    .append(millis(row.getValue().stream().mapToLong(StartupHarness.Result::processToFirstExcerpt)
                    .toArray()))
                    .append(" | ")
                    .append(millis(row.getValue().stream().mapToLong(StartupHarness.Result::mainToFirstExcerpt)
                    .toArray()))
                    .append(" |\n");
        }
        if (!cliTail.isEmpty()) {
            out.append("\n`cq tail -f` on a queue of one message, from launch to its first line (ms), ")
                    .append("median [min-max]:\n\n");
            out.append("| how it is started | first line |\n|---|---|\n");
            for (Map.Entry<String, List<Long>> row : cliTail.entrySet()) {
                out.append("| ").append(row.getKey()).append(" | ")
                        .append(millis(row.getValue().stream().mapToLong(Long::longValue).toArray())).append(" |\n");
            }
        }
    }

    private static String millis(long[] nanos) {
        long[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.1f [%.1f-%.1f]", sorted[sorted.length / 2] / 1e6, sorted[0] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }

    static Statistics stats(RunResult result) {
        return result == null ? null : result.getPrimaryResult().getStatistics();
    }

    static double median(Statistics statistics) {
        return statistics == null ? Double.NaN : statistics.getPercentile(50);
    }

    static String spread(Statistics statistics) {
        if (statistics == null) {
            return "n/a";
        }
        return BenchmarkSuite.format(statistics.getPercentile(50)) + " [" + BenchmarkSuite.format(statistics.getMin())
                + "-"
                + BenchmarkSuite.format(statistics.getMax()) + "]";
    }

    static String ratio(double numerator, double denominator) {
        if (Double.isNaN(numerator) || Double.isNaN(denominator) || denominator == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2fx", numerator / denominator);
    }

    static String allocation(RunResult result) {
        if (result == null) {
            return "n/a";
        }
        for (Map.Entry<String, Result> secondary : result.getSecondaryResults().entrySet()) {
            if (secondary.getKey().endsWith("gc.alloc.rate.norm")) {
                return String.format(Locale.ROOT, "%.2f", secondary.getValue().getScore());
            }
        }
        return "n/a";
    }

    private static String trim(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
