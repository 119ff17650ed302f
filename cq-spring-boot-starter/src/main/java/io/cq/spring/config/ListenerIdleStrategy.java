package io.cq.spring.config;

import io.cq.core.idle.BackoffIdleStrategy;
import io.cq.core.idle.IdleStrategy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What a listener thread does when its queue has nothing new ({@code cq.listener.idle.strategy}, or
 * {@code @QueueListener(idleStrategy = "...")} by its kebab-case name).
 */
public enum ListenerIdleStrategy {
    /** Spin, then yield, then park from the minimum park doubling up to the maximum: next to no CPU when idle. */
    BACKOFF,
    /** Park the maximum park period after every empty poll. */
    SLEEPING,
    /** Yield the core after every empty poll. */
    YIELDING,
    /** Spin: the lowest latency, and a whole core per listener. */
    BUSY_SPIN;

    /**
     * Makes a new idle strategy of this kind for each run of a listener thread (idle strategies keep state).
     *
     * @param maxSpins  spins of {@link #BACKOFF} before it yields
     * @param maxYields yields of {@link #BACKOFF} before it parks
     * @param minPark   first park of {@link #BACKOFF}
     * @param maxPark   longest park of {@link #BACKOFF}, and the period of {@link #SLEEPING}
     * @throws IllegalArgumentException for negative counts or a maximum park below the minimum, at once rather
     *                                  than on a listener thread
     */
    public Supplier<IdleStrategy> factory(int maxSpins, int maxYields, Duration minPark, Duration maxPark) {
        new BackoffIdleStrategy(maxSpins, maxYields, minPark, maxPark);
        return switch (this) {
            case BACKOFF -> () -> new BackoffIdleStrategy(maxSpins, maxYields, minPark, maxPark);
            case SLEEPING -> () -> IdleStrategy.sleeping(maxPark);
            case YIELDING -> IdleStrategy::yielding;
            case BUSY_SPIN -> IdleStrategy::busySpin;
        };
    }

    /** The name used in {@code @QueueListener(idleStrategy = ...)} and in YAML: {@code busy-spin}. */
    public String alias() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The strategy of an alias as written in an annotation: kebab-case or the constant's name, any case.
     *
     * @throws IllegalArgumentException naming the valid aliases
     */
    public static ListenerIdleStrategy fromAlias(String alias) {
        String constant = alias.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (ListenerIdleStrategy strategy : values()) {
            if (strategy.name().equals(constant)) {
                return strategy;
            }
        }
        throw new IllegalArgumentException("no idle strategy \"" + alias + "\"; use one of "
                + Arrays.stream(values()).map(ListenerIdleStrategy::alias).toList());
    }
}
