package io.cq.benchmarks;

import io.cq.benchmarks.codec.DiskFootprintHarness;
import io.cq.benchmarks.latency.LatencyHarness;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CodecSectionTest {
    private static LatencyHarness.Result latency(String implementation, String mode, long nanos) {
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        histogram.recordValueWithCount(nanos, 1_000);
        return new LatencyHarness.Result(implementation, mode, CodecSection.LATENCY_RATE, 40, histogram);
    }

    @Test
    void shouldListPlainCqEveryCodecAndChronicleAsQueueDriversOpenThem() {
        assertThat(CodecSection.IMPLEMENTATIONS)
                .containsExactly("cq", "cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4", "chronicle");
    }

    /** Plain cq and LZ4 on JSON-like orders, LZ4 on random bytes. */
    private static String diskTable() {
        return CodecSection.disk(List.of(
                new DiskFootprintHarness.Result("cq", "JSON-like", 1024, 1_000, 1_100_000, 1_200_000),
                new DiskFootprintHarness.Result("cq-lz4", "JSON-like", 1024, 1_000, 400_000, 450_000),
                new DiskFootprintHarness.Result("cq-lz4", "random", 1024, 1_000, 1_101_000, 1_201_000)));
    }

    @Test
    void shouldTabulateBytesOnDisk() {
        assertThat(diskTable()).contains("(1,000 messages, queue closed)",
                "| JSON-like | 1024 B | cq | 1100.0 | 1.07 | 1200.0 |",
                "| JSON-like | 1024 B | cq-lz4 | 400.0 | 0.39 | 450.0 |",
                "| random | 1024 B | cq-lz4 | 1101.0 | 1.08 | 1201.0 |");
    }

    @Test
    void shouldJudgeTheCompressionTarget() {
        assertThat(diskTable()).contains("with LZ4: 0.39 of its size (met).");
    }

    /** Plain cq and AES in one JVM and in two, AES 1.2 µs slower in one and 2.3 µs in two. */
    private static String latencyTable() {
        return CodecSection.latency(List.of(latency("cq", "1 JVM", 300), latency("cq-aes", "1 JVM", 1_500),
                latency("cq", "2 JVMs", 300), latency("cq-aes", "2 JVMs", 2_600)));
    }

    @Test
    void shouldTabulateLatency() {
        assertThat(latencyTable()).contains("at 700.0K/s of 40-byte messages",
                "| 1 JVM | cq | 0.30 | 0.30 |", "| 1 JVM | cq-aes | 1.50 | 1.50 |");
    }

    @Test
    void shouldJudgeTheEncryptedLatencyAgainstPlain() {
        assertThat(latencyTable()).contains("1 JVM p50 +1.20 µs (met)", "2 JVMs p90 +2.30 µs (**not met**)");
    }
}
