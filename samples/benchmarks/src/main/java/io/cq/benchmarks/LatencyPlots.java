package io.cq.benchmarks;

import io.cq.benchmarks.latency.LatencyHarness;
import io.cq.benchmarks.latency.PercentilePlot;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes one {@link PercentilePlot} per latency scenario (setup, rate and message size) of a section of the suite,
 * every implementation measured in it as one curve. A scenario measured several times (full mode) is drawn from
 * the runs' histograms added together: the distribution of every message measured, where the Markdown table shows
 * the median of the runs' percentiles.
 */
final class LatencyPlots {
    /** Curves in this order, whichever ran first; an implementation not listed comes after them. */
    private static final List<String> ORDER = List.of("cq", "chronicle", "cq+pretouch");

    private final Path directory;
    private final String runDescription;

    /**
     * @param directory      where the SVG files go (created when missing)
     * @param runDescription how each scenario was measured, for the plots' titles (runs, warm-up, measurement)
     */
    LatencyPlots(Path directory, String runDescription) {
        this.directory = directory;
        this.runDescription = runDescription;
    }

    /**
     * Writes the plots of one section ({@code latency}, {@code pretouch}) and returns their files, in the order
     * the scenarios ran.
     */
    List<Path> write(String section, List<LatencyHarness.Result> results) throws IOException {
        Map<String, List<LatencyHarness.Result>> scenarios = new LinkedHashMap<>();
        for (LatencyHarness.Result result : results) {
            scenarios.computeIfAbsent(result.mode() + "|" + result.rate() + "|" + result.size(),
                    k -> new ArrayList<>()).add(result);
        }
        Files.createDirectories(directory);
        List<Path> files = new ArrayList<>();
        for (List<LatencyHarness.Result> scenario : scenarios.values()) {
            LatencyHarness.Result first = scenario.getFirst();
            Path file = directory.resolve(fileName(section, first));
            Files.writeString(file, PercentilePlot.render(titleLines(first), series(scenario)));
            files.add(file);
        }
        return files;
    }

    /** {@code latency-1jvm-100k-40b.svg}: section, setup, rate and message size. */
    static String fileName(String section, LatencyHarness.Result result) {
        String jvms = result.mode().startsWith("1 ") ? "1jvm" : "2jvm";
        int rate = result.rate();
        String perSecond = rate % 1_000_000 == 0 ? rate / 1_000_000 + "m" : rate % 1_000 == 0 ? rate / 1_000 + "k"
                : Integer.toString(rate);
        return section + "-" + jvms + "-" + perSecond + "-" + result.size() + "b.svg";
    }

    private List<String> titleLines(LatencyHarness.Result scenario) {
        String setup = scenario.mode().startsWith("1 ") ? "one JVM (appender and tailer threads)"
                : "two JVMs (appender in a second process)";
        return List.of(
                String.format(Locale.ROOT, "Latency by percentile: %d-byte messages at %s/s, %s", scenario.size(),
                        BenchmarkSuite.format(scenario.rate()), setup),
                "coordinated omission corrected (time from the scheduled send to the read); " + runDescription,
                Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                        + System.getProperty("os.version") + " " + System.getProperty("os.arch") + "; "
                        + System.getProperty("java.vm.name") + " " + Runtime.version() + "; Chronicle Queue "
                        + ChronicleDriver.VERSION + "; " + LocalDate.now(ZoneOffset.UTC));
    }

    private static List<PercentilePlot.Series> series(List<LatencyHarness.Result> scenario) {
        Map<String, Histogram> combined = new TreeMap<>((a, b) -> Integer.compare(rank(a), rank(b)) != 0
                ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
        for (LatencyHarness.Result result : scenario) {
            combined.merge(result.implementation(), result.histogram().copy(), (sum, next) -> {
                sum.add(next);
                return sum;
            });
        }
        List<PercentilePlot.Series> series = new ArrayList<>();
        combined.forEach((implementation, histogram) -> series.add(new PercentilePlot.Series(label(implementation),
                histogram)));
        return series;
    }

    private static int rank(String implementation) {
        int rank = ORDER.indexOf(implementation);
        return rank < 0 ? ORDER.size() : rank;
    }

    private static String label(String implementation) {
        return switch (implementation) {
            case "chronicle" -> "Chronicle Queue";
            case "cq+pretouch" -> "cq, pretouch(true)";
            case "floor" -> "floor (a bare mapped file)";
            default -> implementation;
        };
    }
}
