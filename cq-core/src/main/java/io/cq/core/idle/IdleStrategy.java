package io.cq.core.idle;

import java.time.Duration;

/**
 * What a polling loop does when a poll found no work: {@code idle(workCount)} after each poll, with the number
 * of excerpts the poll handled. Any work resets the strategy; a run of idle polls escalates it.
 *
 * <p>Instances keep state and belong to one polling thread. On a machine with few cores prefer
 * {@link #backoff()} (the default for listener containers): a busy-spinning poller takes a whole core.
 */
public interface IdleStrategy {
    /** Called after each poll; {@code workCount > 0} resets the strategy, 0 idles one step. */
    default void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    /** Idles one step. */
    void idle();

    /** Back to the first, cheapest step. */
    void reset();

    /** A short name for metrics and logs, e.g. "backoff". */
    String alias();

    /** Spins, then yields, then parks from 1 µs doubling up to 1 ms: low latency when busy, little CPU when idle. */
    static IdleStrategy backoff() {
        return new BackoffIdleStrategy(100, 20, Duration.ofNanos(1_000), Duration.ofMillis(1));
    }

    /** Spins on {@link Thread#onSpinWait()}: lowest latency, one full core per poller. */
    static IdleStrategy busySpin() {
        return new BusySpinIdleStrategy();
    }

    /** Yields the core after each idle poll. */
    static IdleStrategy yielding() {
        return new YieldingIdleStrategy();
    }

    /** Sleeps a fixed time after each idle poll: cheapest, latency up to the period. */
    static IdleStrategy sleeping(Duration period) {
        return new SleepingIdleStrategy(period);
    }
}
