package io.cq.benchmarks;

import io.cq.benchmarks.latency.LatencyHarness;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyPlotsTest {
    @TempDir
    Path dir;

    private static LatencyHarness.Result result(String implementation, String mode, int rate, long nanos,
                                                int count) {
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        histogram.recordValueWithCount(nanos, count);
        return new LatencyHarness.Result(implementation, mode, rate, 40, histogram);
    }

    @Test
    void shouldWriteOnePlotPerScenarioWithTheRunsOfEachLibraryAddedTogether() throws Exception {
        LatencyPlots plots = new LatencyPlots(dir.resolve("plots"), "full mode: 2 runs");

        List<Path> files = plots.write("latency", List.of(
                result("chronicle", "1 JVM", 100_000, 700, 1_000),
                result("cq", "1 JVM", 100_000, 300, 1_000),
                result("cq", "1 JVM", 100_000, 400, 3_000),
                result("chronicle", "1 JVM", 100_000, 900, 1_000),
                result("cq", "2 JVMs", 1_000_000, 500, 10)));

        assertThat(files).extracting(file -> file.getFileName().toString())
                .containsExactly("latency-1jvm-100k-40b.svg", "latency-2jvm-1m-40b.svg");
        String oneJvm = Files.readString(files.getFirst());
        assertThat(oneJvm).contains("40-byte messages at 100.0K/s, one JVM (appender and tailer threads)")
                .contains("full mode: 2 runs").contains("Chronicle Queue " + ChronicleDriver.VERSION);
        // cq first whichever ran first, each library's runs as one curve: 4,000 and 2,000 values.
        assertThat(oneJvm.indexOf("data-label=\"cq\"")).isLessThan(oneJvm.indexOf("data-label=\"Chronicle Queue\""));
        assertThat(oneJvm).contains("4,000 values · p50 400 ns").contains("2,000 values · p50 700 ns");
        assertThat(Files.readString(files.getLast())).contains("at 1.00M/s, two JVMs (appender in a second process)")
                .contains("10 values").doesNotContain("Chronicle Queue</tspan>");
    }

    @Test
    void shouldNameEachFileBySectionSetupRateAndSize() {
        assertThat(LatencyPlots.fileName("pretouch", new LatencyHarness.Result("cq", "1 JVM", 250_000, 32,
                new Histogram(3)))).isEqualTo("pretouch-1jvm-250k-32b.svg");
        assertThat(LatencyPlots.fileName("latency", new LatencyHarness.Result("cq", "2 JVMs", 12_345, 40,
                new Histogram(3)))).isEqualTo("latency-2jvm-12345-40b.svg");
    }
}
