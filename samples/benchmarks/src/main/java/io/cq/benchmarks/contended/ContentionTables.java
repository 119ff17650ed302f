package io.cq.benchmarks.contended;

import io.cq.benchmarks.BenchmarkSuite;

import java.util.List;
import java.util.Locale;

/** The contention sections of the benchmark report, as Markdown. */
public final class ContentionTables {
    private ContentionTables() {
    }

    /** Writers contending for one queue, the implementations side by side; empty without results. */
    public static String contended(List<ContendedWriteHarness.Result> results) {
        if (results.isEmpty()) {
            return "";
        }
        StringBuilder sections = new StringBuilder();
        sections.append("\n### Contended writes: excerpts of ").append(results.getFirst().size())
                .append(" bytes composed a long at a time, every writer as fast as it can\n\n");
        sections.append("Rate: excerpts/s of all writers together. Times: one append, writingDocument to close "
                + "(µs).\n\n");
        sections.append("| writers | implementation | rate | p50 | p99 | p99.9 | p99.99 | max |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (ContendedWriteHarness.Result result : results) {
            sections.append("| ").append(result.setup()).append(" | ").append(result.implementation()).append(" | ")
                    .append(BenchmarkSuite.format(result.rate())).append("/s |");
            for (double p : new double[] {50, 99, 99.9, 99.99}) {
                sections.append(String.format(Locale.ROOT, " %.2f |",
                        result.appendNanos().getValueAtPercentile(p) / 1e3));
            }
            sections.append(String.format(Locale.ROOT, " %.1f |%n", result.appendNanos().getMaxValue() / 1e3));
        }
        return sections.toString();
    }

    /** Waits for the write lock, from a few platform threads to a burst; empty without results. */
    public static String lockWait(List<LockWaitHarness.Result> results) {
        if (results.isEmpty()) {
            return "";
        }
        StringBuilder sections = new StringBuilder();
        sections.append("\n### Waiting for the write lock: 64-byte excerpts, from a few threads to a burst\n\n");
        sections.append("Wait: the time writingDocument() takes to return (µs); for \"appender per append\", the whole "
                + "make-append-close. Rate: successful appends/s of all writers together. Failed: appends that threw "
                + "(a lock timeout). Stderr: lines the writer JVMs printed there.\n\n");
        sections.append("| writers | implementation | rate | failed | p50 | p99 | p99.99 | max | stderr |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (LockWaitHarness.Result result : results) {
            sections.append("| ").append(result.setup()).append(" | ").append(result.implementation()).append(" | ");
            if (!result.finished()) {
                sections.append("did not finish in ").append(LockWaitHarness.CHILD_TIMEOUT_SECONDS)
                        .append(" s | | | | | | |\n");
                continue;
            }
            sections.append(BenchmarkSuite.format(result.rate())).append("/s | ").append(result.failures())
                    .append(" |");
            for (double p : new double[] {50, 99, 99.99}) {
                sections.append(String.format(Locale.ROOT, " %.2f |",
                        result.waitNanos().getValueAtPercentile(p) / 1e3));
            }
            sections.append(String.format(Locale.ROOT, " %.1f | %d |%n", result.waitNanos().getMaxValue() / 1e3,
                    result.stderrLines()));
        }
        return sections.toString();
    }
}
