package io.cq.core.idle;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** Spin, then yield, then park with a doubling period up to a maximum. One polling thread; not thread-safe. */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private int spins;
    private int yields;
    private long parkNanos;

    public BackoffIdleStrategy(int maxSpins, int maxYields, Duration minPark, Duration maxPark) {
        if (maxSpins < 0 || maxYields < 0 || minPark.isNegative() || maxPark.compareTo(minPark) < 0) {
            throw new IllegalArgumentException("maxSpins=" + maxSpins + ", maxYields=" + maxYields + ", minPark="
                    + minPark
                    + ", maxPark=" + maxPark + ": counts must not be negative and maxPark must be at least minPark");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = Math.max(1, minPark.toNanos());
        this.maxParkNanos = Math.max(this.minParkNanos, maxPark.toNanos());
        reset();
    }

    @Override
    public void idle() {
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(parkNanos << 1, maxParkNanos);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }

    /** The current park period once spinning and yielding are exhausted; for tests and diagnostics. */
    public long currentParkNanos() {
        return parkNanos;
    }

    @Override
    public String alias() {
        return "backoff";
    }
}
