package io.cq.core.idle;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** Parks for a fixed period on every idle poll. Stateless. */
public final class SleepingIdleStrategy implements IdleStrategy {
    private final long periodNanos;

    public SleepingIdleStrategy(Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period=" + period + " must be positive");
        }
        this.periodNanos = period.toNanos();
    }

    @Override
    public void idle() {
        LockSupport.parkNanos(periodNanos);
    }

    @Override
    public void reset() {
        // nothing to reset: every step is the same
    }

    @Override
    public String alias() {
        return "sleeping";
    }
}
