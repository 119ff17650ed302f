package io.cq.benchmarks;

import io.cq.benchmarks.codec.DiskFootprintHarness;
import io.cq.benchmarks.jmh.CodecAppendBenchmark;
import io.cq.benchmarks.jmh.CodecReadBenchmark;
import io.cq.benchmarks.latency.LatencyHarness;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The suite's {@code codecs} section (docs/codecs.md, docs/performance.md "Codecs"): plain cq, cq with each excerpt
 * codec ({@link CodecVariants}) and Chronicle Queue in one run, on JSON-like payloads ({@link Payloads}):
 * <ul>
 * <li>append and read throughput at 40 B, 96 B and 1 KiB (JMH, {@code -prof gc} for the bytes allocated per
 * message), the appends one fork at a time with the implementations taking turns, as the append section does;</li>
 * <li>bytes on disk per message, JSON-like and random payloads ({@link DiskFootprintHarness});</li>
 * <li>end-to-end latency of encrypted against plain 40-byte messages at {@value #LATENCY_RATE}/s, one JVM and two
 * ({@link LatencyHarness}; the child JVM opens the queue by the same name, so with the same codecs and key).</li>
 * </ul>
 * Each table names the targets of issue 41 and whether this run met them.
 */
final class CodecSection {
    /** Every implementation of the throughput and disk tables, in the order of their rows. */
    static final List<String> IMPLEMENTATIONS = implementations();
    /** Rows in the order of {@link #IMPLEMENTATIONS}, any other after them. */
    private static final Comparator<String> ROWS = Comparator.<String>comparingInt(name -> {
        int i = IMPLEMENTATIONS.indexOf(name);
        return i < 0 ? Integer.MAX_VALUE : i;
    }).thenComparing(Comparator.naturalOrder());
    static final List<String> LATENCY_IMPLEMENTATIONS = List.of("cq", "cq-aes");
    static final int LATENCY_RATE = 700_000;
    /** Messages written per queue for the disk table (a smoke run writes fewer). */
    static final long DISK_MESSAGES = 200_000;

    private CodecSection() {
    }

    private static List<String> implementations() {
        List<String> names = new ArrayList<>(List.of("cq"));
        names.addAll(CodecVariants.NAMES);
        names.add("chronicle");
        return List.copyOf(names);
    }

    static void run(BenchmarkSuite.Settings settings, Report report, LatencyPlots plots, List<String> jvmArgs)
            throws Exception {
        // A smoke run (iterations shorter than a second) proves the section runs: small queues, fewer messages.
        boolean smoke = settings.iterationMillis() < 1_000;
        String[] implementations = IMPLEMENTATIONS.toArray(String[]::new);
        report.markdown(throughput("Append with excerpt codecs", BenchmarkSuite.alternatingForks(settings,
                CodecAppendBenchmark.class, jvmArgs, implementations), true));

        List<String> readArgs = new ArrayList<>(jvmArgs);
        readArgs.add("-D" + CodecReadBenchmark.QUEUE_MIB_PROPERTY + "=" + (smoke ? 8 : 256));
        Collection<RunResult> reads = new Runner(BenchmarkSuite.jmhOptions(settings, CodecReadBenchmark.class,
                Mode.Throughput, readArgs, true).param("implementation", implementations).build()).run();
        report.markdown(throughput("Sequential read with excerpt codecs, one read context per excerpt, a queue of "
                + (smoke ? 8 : 256) + " MiB of payload", reads, false));

        Path base = Path.of(System.getProperty("cq.bench.dir", "target"));
        Files.createDirectories(base);
        Path directory = Files.createTempDirectory(base, "footprint");
        try {
            report.markdown(disk(DiskFootprintHarness.run(IMPLEMENTATIONS, smoke ? 5_000 : DISK_MESSAGES, directory,
                    jvmArgs)));
        } finally {
            Directories.delete(directory);
        }

        List<LatencyHarness.Result> results = new ArrayList<>();
        for (boolean crossProcess : new boolean[] {false, true}) {
            for (int run = 0; run < settings.latencyRuns(); run++) {
                // Who goes first changes from run to run.
                List<String> turn = new ArrayList<>(LATENCY_IMPLEMENTATIONS);
                if (run % 2 == 1) {
                    turn = turn.reversed();
                }
                for (String implementation : turn) {
                    Path queue = Files.createTempDirectory("codec-latency-" + implementation);
                    try {
                        results.add(LatencyHarness.run(implementation, crossProcess, LATENCY_RATE,
                                LatencyHarness.MESSAGE_SIZE, settings.latencyWarmup(), settings.latencySeconds(),
                                queue, jvmArgs));
                    } finally {
                        Directories.delete(queue);
                    }
                }
            }
        }
        report.markdown(latency(results));
        report.plots(plots.write("codecs", results));
    }

    /** One row per size and implementation: messages/s, the ratio to plain cq's, MB/s and bytes allocated. */
    static String throughput(String title, Collection<RunResult> results, boolean append) {
        Map<Integer, Map<String, RunResult>> bySize = new TreeMap<>();
        for (RunResult result : results) {
            bySize.computeIfAbsent(Integer.parseInt(result.getParams().getParam("size")), k -> new TreeMap<>(ROWS))
                    .put(result.getParams().getParam("implementation"), result);
        }
        StringBuilder out = new StringBuilder();
        out.append("\n### ").append(title).append(" (one thread, messages/s)\n\n");
        if (append) {
            out.append(codecsLegend()).append("Payload: ").append(Payloads.describe(96)).append(". The same bytes "
                    + "for every implementation: the append and read benchmarks take ")
                    .append(String.format(Locale.ROOT, "%,d", CodecAppendBenchmark.MESSAGES))
                    .append(" such messages per size in turn, the disk table writes every message different.\n\n");
        }
        out.append("| size | implementation | messages/s median [min-max] | / plain cq | MB/s | B/op |\n"
                + "|---|---|---|---|---|---|\n");
        for (Map.Entry<Integer, Map<String, RunResult>> row : bySize.entrySet()) {
            double plain = Report.median(Report.stats(row.getValue().get("cq")));
            row.getValue().forEach((implementation, result) -> {
                double median = Report.median(Report.stats(result));
                out.append(String.format(Locale.ROOT, "| %d B | %s | %s | %s | %.0f | %s |%n", row.getKey(),
                        implementation, Report.spread(Report.stats(result)), Report.ratio(median, plain),
                        median * row.getKey() / 1e6, Report.allocation(result)));
            });
        }
        if (append) {
            out.append("\nTarget (issue 41): with checksums, append at 40 B and 1 KiB at least 0.75× plain cq's:");
            for (int size : new int[] {40, 1024}) {
                Map<String, RunResult> row = bySize.getOrDefault(size, Map.of());
                double ratio = Report.median(Report.stats(row.get("cq-crc")))
                        / Report.median(Report.stats(row.get("cq")));
                out.append(String.format(Locale.ROOT, " %d B %s", size, verdict(ratio, ratio >= 0.75, "%.2f×")));
            }
            out.append(".\n");
        }
        return out.toString();
    }

    /** The disk table: bytes allocated and apparent per message, by payload, size and implementation. */
    static String disk(List<DiskFootprintHarness.Result> results) {
        StringBuilder out = new StringBuilder();
        long messages = results.isEmpty() ? 0 : results.getFirst().messages();
        out.append(String.format(Locale.ROOT, "%n### Bytes on disk per message (%,d messages, queue closed)%n%n",
                messages));
        out.append("Allocated: the blocks of the queue's files (st_blocks × 512, what `du` counts), apparent: their "
                + "lengths (what `ls -l` shows), both divided by the messages, after a `sync`; the fixed files (cq's "
                + "table store, Chronicle's metadata) included. JSON-like: the payload of the throughput tables, "
                + "every message different; random: random bytes of the same size.\n\n");
        out.append("| payload | size | implementation | allocated B/message | allocated / size | apparent B/message |\n"
                + "|---|---|---|---|---|---|\n");
        Double lz4 = null;
        for (DiskFootprintHarness.Result result : results) {
            out.append(String.format(Locale.ROOT, "| %s | %d B | %s | %.1f | %.2f | %.1f |%n", result.payload(),
                    result.size(), result.implementation(), result.allocatedPerMessage(),
                    result.allocatedPerMessage() / result.size(), result.apparentPerMessage()));
            if (result.implementation().equals("cq-lz4") && result.payload().equals("JSON-like")
                    && result.size() == 1024) {
                lz4 = result.allocatedPerMessage();
            }
        }
        if (lz4 != null) {
            out.append("\nTarget (issue 41): JSON-like 1 KiB stored in at most half its size with LZ4: ")
                    .append(verdict(lz4 / 1024, lz4 <= 512, "%.2f of its size")).append(".\n");
        }
        return out.toString();
    }

    /** Latency percentiles of each implementation, one JVM and two, and the targets' differences. */
    static String latency(List<LatencyHarness.Result> results) {
        Map<String, Map<String, List<LatencyHarness.Result>>> bySetup = new LinkedHashMap<>();
        for (LatencyHarness.Result result : results) {
            bySetup.computeIfAbsent(result.mode(), k -> new TreeMap<>()).computeIfAbsent(result.implementation(),
                    k -> new ArrayList<>()).add(result);
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%n### Encrypted against plain: end-to-end latency at %s/s of %d-byte "
                + "messages, coordinated omission corrected (µs)%n%n", BenchmarkSuite.format(LATENCY_RATE),
                LatencyHarness.MESSAGE_SIZE));
        out.append("cq-aes: AES-GCM with a 256-bit key. Each cell: median over runs, [min-max] when there were "
                + "several; a rate not sustained shows as latency growing towards the run's length.\n\n");
        out.append("| setup | implementation | p50 | p90 | p99 | p99.9 | p99.99 | max |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, Map<String, List<LatencyHarness.Result>>> setup : bySetup.entrySet()) {
            setup.getValue().forEach((implementation, runs) -> {
                out.append("| ").append(setup.getKey()).append(" | ").append(implementation).append(" |");
                for (double p : new double[] {50, 90, 99, 99.9, 99.99, 100}) {
                    out.append(' ').append(Report.micros(runs, p)).append(" |");
                }
                out.append('\n');
            });
        }
        out.append("\nTarget (issue 41): encrypted p50 and p90 within 2 µs of plain cq's at the same rate:");
        for (Map.Entry<String, Map<String, List<LatencyHarness.Result>>> setup : bySetup.entrySet()) {
            List<LatencyHarness.Result> plain = setup.getValue().get("cq");
            List<LatencyHarness.Result> encrypted = setup.getValue().get("cq-aes");
            if (plain == null || encrypted == null) {
                continue;
            }
            for (double p : new double[] {50, 90}) {
                double difference = medianMicros(encrypted, p) - medianMicros(plain, p);
                out.append(String.format(Locale.ROOT, " %s p%.0f %s", setup.getKey(), p,
                        verdict(difference, difference <= 2, "%+.2f µs")));
            }
        }
        return out.append(".\n").toString();
    }

    private static String codecsLegend() {
        return "cq-crc: CRC-32C checksums; cq-lz4, cq-deflate: compression from " + CodecVariants.COMPRESSION_THRESHOLD
                + " bytes (40-byte excerpts are stored as written); cq-aes: AES-GCM, a 256-bit key; cq-aes-lz4: "
                + "LZ4 then AES-GCM (docs/codecs.md). ";
    }

    private static double medianMicros(List<LatencyHarness.Result> runs, double percentile) {
        double[] values = runs.stream().mapToDouble(r -> r.histogram().getValueAtPercentile(percentile) / 1e3)
                .sorted().toArray();
        return values[values.length / 2];
    }

    private static String verdict(double value, boolean met, String format) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, format, value) + (met ? " (met)" : " (**not met**)");
    }
}
