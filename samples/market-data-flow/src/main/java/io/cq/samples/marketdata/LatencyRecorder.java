package io.cq.samples.marketdata;

import java.util.Arrays;

/** Feed-to-consumer latencies of the local consumer, kept up to a bound; one consumer thread records. */
final class LatencyRecorder {
    private final long[] nanos = new long[1 << 20];
    private volatile int count;

    void record(long latencyNanos) {
        int n = count;
        if (n < nanos.length) {
            nanos[n] = latencyNanos;
            count = n + 1;
        }
    }

    int count() {
        return count;
    }

    /** {@code "p50 12 us, p99 40 us, max 900 us"} over what was recorded. */
    String summary() {
        int n = count;
        if (n == 0) {
            return "no quotes";
        }
        long[] sorted = Arrays.copyOf(nanos, n);
        Arrays.sort(sorted);
        return "p50 " + micros(sorted[n / 2]) + ", p99 " + micros(sorted[(int) (n * 0.99)]) + ", max "
                + micros(sorted[n - 1]);
    }

    private static String micros(long nanos) {
        return String.format("%,.1f us", nanos / 1_000.0);
    }
}
