package io.cq.benchmarks;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ceilings section (docs/performance.md, "Ceilings"): what this machine allows any queue, measured in the same
 * run as the queues. Writing: a plain loop into fresh mapped pages, faulting them in itself or getting them from a
 * second thread. Reading: a bare mapped file's records copied out ({@code floor}), beside cq and Chronicle Queue
 * copying theirs, so a target of "n times Chronicle" can be checked against what the memory allows at all.
 */
final class CeilingSection {
    private CeilingSection() {
    }

    static String render(Collection<RunResult> writes, Collection<RunResult> reads) {
        StringBuilder out = new StringBuilder();
        out.append("\n### Ceiling: a plain loop writing length-prefixed records into fresh mapped pages (one "
                + "writing thread)\n\n");
        out.append("| size | pages faulted by the writer, records/s median [min-max] | MB/s | pages faulted ahead by a "
                + "second thread, records/s | MB/s |\n|---|---|---|---|---|\n");
        Map<Integer, Map<String, RunResult>> writesBySize = bySize(writes, "ahead");
        for (Map.Entry<Integer, Map<String, RunResult>> row : writesBySize.entrySet()) {
            int size = row.getKey();
            Statistics itself = Report.stats(row.getValue().get("false"));
            Statistics ahead = Report.stats(row.getValue().get("true"));
            out.append(String.format(Locale.ROOT, "| %d B | %s | %.0f | %s | %.0f |%n", size, Report.spread(itself),
                    Report.median(itself) * size / 1e6, Report.spread(ahead), Report.median(ahead) * size / 1e6));
        }
        out.append("\n### Ceiling: records copied out of a mapped file into an array (one thread, records/s; floor: "
                + "a bare mapped file, no queue)\n\n");
        out.append("| size | floor median [min-max] | cq | Chronicle | cq / floor | Chronicle / floor | cq / Chronicle "
                + "|\n|---|---|---|---|---|---|---|\n");
        Map<Integer, Map<String, RunResult>> readsBySize = bySize(reads.stream()
                .filter(result -> result.getParams().getBenchmark().endsWith(".readCopy")).toList(), "implementation");
        for (Map.Entry<Integer, Map<String, RunResult>> row : readsBySize.entrySet()) {
            double floor = Report.median(Report.stats(row.getValue().get("floor")));
            double cq = Report.median(Report.stats(row.getValue().get("cq")));
            double chronicle = Report.median(Report.stats(row.getValue().get("chronicle")));
            out.append(String.format(Locale.ROOT, "| %d B | %s | %s | %s | %s | %s | %s |%n", row.getKey(),
                    Report.spread(Report.stats(row.getValue().get("floor"))),
                    Report.spread(Report.stats(row.getValue().get("cq"))),
                    Report.spread(Report.stats(row.getValue().get("chronicle"))), Report.ratio(cq, floor),
                    Report.ratio(chronicle, floor), Report.ratio(cq, chronicle)));
        }
        return out.toString();
    }

    private static Map<Integer, Map<String, RunResult>> bySize(Collection<RunResult> results, String column) {
        Map<Integer, Map<String, RunResult>> bySize = new TreeMap<>();
        for (RunResult result : results) {
            bySize.computeIfAbsent(Integer.parseInt(result.getParams().getParam("size")), k -> new TreeMap<>())
                    .put(result.getParams().getParam(column), result);
        }
        return bySize;
    }
}
