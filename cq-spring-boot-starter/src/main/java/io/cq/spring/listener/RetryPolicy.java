package io.cq.spring.listener;

import java.time.Duration;

/**
 * How often and how patiently a failing excerpt is retried before its {@link ListenerErrorHandler} decides.
 *
 * @param maxAttempts calls per excerpt, the first included; 1 means no retry
 * @param interval    pause before the first retry
 * @param multiplier  growth of the pause after each retry, at least 1
 * @param maxInterval longest pause
 */
public record RetryPolicy(int maxAttempts, Duration interval, double multiplier, Duration maxInterval) {
    public RetryPolicy {
        if (maxAttempts < 1 || interval.isNegative() || multiplier < 1 || maxInterval.compareTo(interval) < 0) {
            throw new IllegalArgumentException("maxAttempts=" + maxAttempts + ", interval=" + interval + ", multiplier="
                    + multiplier + ", maxInterval=" + maxInterval + ": attempts must be at least 1, the multiplier at "
                    + "least 1 and maxInterval at least interval");
        }
    }

    /** The pause after the given failed attempt (1 for the first). */
    public long pauseNanos(int failedAttempt) {
        double nanos = interval.toNanos() * Math.pow(multiplier, failedAttempt - 1);
        return (long) Math.min(nanos, maxInterval.toNanos());
    }
}
