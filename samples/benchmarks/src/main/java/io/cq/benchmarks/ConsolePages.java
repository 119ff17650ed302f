package io.cq.benchmarks;

import io.cq.benchmarks.console.ConsoleCostHarness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The console section's tables: collects what {@code ConsolePageHarness} prints, and renders it and the cost runs
 * as Markdown, each table with the target of issue 42 it checks and whether this run met it.
 */
final class ConsolePages implements Consumer<String> {
    private final int excerpts;
    private final int warmup;
    private double fillSeconds = Double.NaN;
    private final Map<String, double[]> cold = new LinkedHashMap<>();
    private final Map<String, List<double[]>> pages = new LinkedHashMap<>();
    private final Map<String, List<Double>> loads = new LinkedHashMap<>();
    private final List<double[]> browserWarm = new ArrayList<>();
    private double[] browserCold;
    private final Map<String, List<double[]>> resources = new LinkedHashMap<>();
    private String browserSkipped;

    ConsolePages(int excerpts, int warmup) {
        this.excerpts = excerpts;
        this.warmup = warmup;
    }

    @Override
    public void accept(String line) {
        int space = line.indexOf(' ');
        if (space < 0) {
            return;
        }
        String kind = line.substring(0, space);
        String[] fields = line.substring(space + 1).split("\\|");
        switch (kind) {
            case "filled" -> fillSeconds = Double.parseDouble(fields[1]);
            case "cold" -> cold.put(fields[0], numbers(fields, 1));
            case "page" -> pages.computeIfAbsent(fields[0], k -> new ArrayList<>()).add(numbers(fields, 1));
            case "load" -> loads.computeIfAbsent(fields[0], k -> new ArrayList<>()).add(Double.parseDouble(fields[1]));
            case "browser" -> {
                double[] figures = numbers(fields, 1);
                if (fields[0].equals("cold")) {
                    browserCold = figures;
                } else {
                    browserWarm.add(figures);
                }
            }
            case "resource" -> resources.computeIfAbsent(fields[0], k -> new ArrayList<>()).add(numbers(fields, 1));
            case "browser-skipped" -> browserSkipped = String.join("|", fields);
            default -> {
            }
        }
    }

    private static double[] numbers(String[] fields, int from) {
        return Arrays.stream(fields, from, fields.length).mapToDouble(Double::parseDouble).toArray();
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%n### Console: a page of 50 excerpts of a queue of %,d, in the service "
                + "(ms)%n%n", excerpts));
        out.append(String.format(Locale.ROOT, "A Spring Boot web application (Tomcat) with the console on and ten "
                + "queues: \"big\" holds %,d method-writer calls of four arguments (written in %.1f s before "
                + "measuring), nine others 100 texts each. Each kind of page in turn, %d requests of each after %d "
                + "of each to warm up, over HTTP/1.1 from the same JVM. Service: the `total` of the answer's "
                + "`Server-Timing` (positioning a tailer, reading, decoding and rendering 50 messages, writing the "
                + "JSON); round trip: the client's, Tomcat and the loopback included.%n%n", excerpts, fillSeconds,
                pages.isEmpty() ? 0 : pages.values().iterator().next().size(), warmup));
        out.append("| page | service p50 | p99 | max | round trip p50 | p99 | max |\n|---|---|---|---|---|---|---|\n");
        List<double[]> all = new ArrayList<>();
        pages.forEach((kind, costs) -> {
            all.addAll(costs);
            out.append(row(kind, costs));
        });
        out.append(row("**every kind**", all));
        cold.entrySet().stream().findFirst().ifPresent(first -> out.append(String.format(Locale.ROOT,
                "| the first request after start-up (%s, cold JVM) | %.2f | | | %.2f | | |%n", first.getKey(),
                first.getValue()[0], first.getValue()[1])));
        double max = all.stream().mapToDouble(cost -> cost[0]).max().orElse(Double.NaN);
        double p99 = percentile(all.stream().mapToDouble(cost -> cost[0]).toArray(), 99);
        out.append(String.format(Locale.ROOT, "%nTarget (issue 42): browsing any page of 50 excerpts costs at most "
                + "%.0f ms in the service: p99 %.2f ms, max %.2f ms%s.%n", ConsoleSection.PAGE_TARGET_MS, p99, max,
                max <= ConsoleSection.PAGE_TARGET_MS ? " (met)" : " (**not met**)"));

        out.append(String.format(Locale.ROOT, "%n### Console: the page usable within 1 s (10 queues, %,d excerpts)"
                + "%n%n", excerpts));
        if (browserSkipped != null || browserCold == null) {
            out.append("Headless Chromium: not measured (").append(browserSkipped == null ? "no figures"
                    : browserSkipped).append("); the HTTP table below stands alone.\n\n");
        } else {
            out.append(String.format(Locale.ROOT, "Headless Chromium driven by Selenium, on the same machine as the "
                    + "service, opens the console on its excerpt browser (the last 50 excerpts of \"big\"): once "
                    + "cold (an empty browser cache, the service's first page) and %d times warm, each after "
                    + "`about:blank`. Milliseconds from the start of the navigation (`performance.now()`) to the "
                    + "page's own marks: the queues shown, and the 50 excerpts rendered (the first full render).%n%n",
                    browserWarm.size()));
            out.append("| load | queues shown | 50 excerpts rendered | rows |\n|---|---|---|---|\n");
            out.append(String.format(Locale.ROOT, "| cold | %.0f | %.0f | %.0f |%n", browserCold[0], browserCold[1],
                    browserCold[2]));
            out.append(String.format(Locale.ROOT, "| warm, median [min-max] of %d | %s | %s | %.0f |%n",
                    browserWarm.size(), spread(browserWarm, 0), spread(browserWarm, 1),
                    browserWarm.isEmpty() ? Double.NaN : browserWarm.getFirst()[2]));
            out.append("\nWhat the browser fetched on the warm loads (Resource Timing; the page first), ms:\n\n"
                    + "| request | duration p50 | max | request to first byte p50 |\n|---|---|---|---|\n");
            resources.forEach((path, figures) -> out.append(String.format(Locale.ROOT, "| `%s` | %.1f | %.1f | "
                    + "%.1f |%n", path, percentile(column(figures, 0), 50), percentile(column(figures, 0), 100),
                    percentile(column(figures, 1), 50))));
            double worst = Math.max(browserCold[1], browserWarm.stream().mapToDouble(f -> f[1]).max().orElse(0));
            out.append(String.format(Locale.ROOT, "%nTarget (issue 42): the page usable within 1 s: the excerpts "
                    + "rendered at most %.0f ms after the navigation started, cold load included%s.%n", worst,
                    worst <= ConsoleSection.USABLE_TARGET_MS ? " (met)" : " (**not met**)"));
        }
        out.append("\nEvery request the page makes on load, one after the other over HTTP/1.1 from the service's "
                + "JVM (no browser), round trip in ms:\n\n| request | p50 | max |\n|---|---|---|\n");
        double sum = 0;
        for (Map.Entry<String, List<Double>> load : loads.entrySet()) {
            double[] values = load.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            sum += percentile(values, 50);
            out.append(String.format(Locale.ROOT, "| `%s` | %.2f | %.2f |%n", load.getKey(), percentile(values, 50),
                    percentile(values, 100)));
        }
        out.append(String.format(Locale.ROOT, "| all of them, in sequence (sum of p50) | %.2f | |%n", sum));
        return out.toString();
    }

    private static String row(String kind, List<double[]> costs) {
        double[] service = column(costs, 0);
        double[] roundTrip = column(costs, 1);
        return String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", kind,
                percentile(service, 50), percentile(service, 99), percentile(service, 100),
                percentile(roundTrip, 50), percentile(roundTrip, 99), percentile(roundTrip, 100));
    }

    private static double[] column(List<double[]> rows, int column) {
        return rows.stream().mapToDouble(row -> row[column]).toArray();
    }

    /** Nearest rank: the smallest value with at least {@code p} percent of the values at or below it. */
    static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static String spread(List<double[]> rows, int column) {
        double[] values = column(rows, column);
        return String.format(Locale.ROOT, "%.0f [%.0f-%.0f]", percentile(values, 50), percentile(values, 0),
                percentile(values, 100));
    }

    /** The third table: every figure of every configuration, median [min-max] over the runs, then run by run. */
    static String cost(Map<String, List<double[]>> results, List<String> order, int runs, int appends, int warmup,
                       int seconds) {
        StringBuilder out = new StringBuilder();
        out.append("\n### Console: append and listener figures with the console off, on, and on with a viewer\n\n");
        out.append(String.format(Locale.ROOT, "The same Spring Boot web application (Tomcat, the Actuator, the "
                + "`queues` endpoint exposed) with a class-level `@QueueListener` on a queue of self-written 24-byte "
                + "ticks, each run in a fresh JVM, %d runs of each configuration, interleaved (who goes first "
                + "changes every run). Appends: %d rounds of %,d through a method writer with the listener paused, "
                + "the first a warm-up, the median of the others; listened: the listener resumed on all of them, "
                + "from resume to the last; latency: ticks at %s/s stamped with the time they were due, the "
                + "listener recording `now - due` (coordinated omission corrected), %d s warm-up + %d s measured. "
                + "The viewer is an HTTP client in the suite's JVM asking for the figures and the last page of the "
                + "queue every %d ms (eight times as often as the page's default refresh), answered 200 every time. "
                + "Each cell: median [min-max] over the runs; latency in µs.%n%n", runs,
                ConsoleCostHarness.APPEND_ROUNDS, appends, BenchmarkSuite.format(ConsoleSection.LATENCY_RATE),
                warmup, seconds, ConsoleSection.VIEWER_PERIOD_MS));
        out.append("| configuration | appends/s | listened/s | p50 | p90 | p99 | p99.9 | max |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        results.forEach((configuration, rows) -> {
            out.append("| ").append(configuration).append(" | ").append(rate(column(rows, 0))).append(" | ")
                    .append(rate(column(rows, 1)));
            for (int i = 2; i <= 6; i++) {
                double[] micros = Arrays.stream(column(rows, i)).map(ns -> ns / 1e3).toArray();
                out.append(String.format(Locale.ROOT, " | %.2f [%.2f-%.2f]", percentile(micros, 50),
                        percentile(micros, 0), percentile(micros, 100)));
            }
            out.append(" |\n");
        });
        out.append("\nRun by run, in the order they ran:\n\n| run | configuration | appends/s | listened/s | p50 µs | "
                + "p99 µs | max µs |\n|---|---|---|---|---|---|---|\n");
        order.forEach(line -> out.append(line).append('\n'));
        out.append("\nTarget (issue 42): enabling the console changes no append or listener figure: compare each "
                + "configuration's median with the others' spread above.\n");
        return out.toString();
    }

    private static String rate(double[] values) {
        return BenchmarkSuite.format(percentile(values, 50)) + " [" + BenchmarkSuite.format(percentile(values, 0))
                + "-" + BenchmarkSuite.format(percentile(values, 100)) + "]";
    }
}
