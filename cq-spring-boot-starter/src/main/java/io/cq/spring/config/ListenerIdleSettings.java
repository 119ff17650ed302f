package io.cq.spring.config;

import io.cq.core.idle.IdleStrategy;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The idle strategy of listener containers with its parameters; a listener that names another strategy keeps
 * these parameters.
 *
 * @param strategy  the default strategy
 * @param maxSpins  spins of the backoff strategy before it yields
 * @param maxYields yields of the backoff strategy before it parks
 * @param minPark   first park of the backoff strategy; it doubles up to maxPark
 * @param maxPark   longest park of the backoff strategy, and the period of the sleeping one
 */
public record ListenerIdleSettings(ListenerIdleStrategy strategy, int maxSpins, int maxYields, Duration minPark,
                                   Duration maxPark) {
    /** Backoff: 100 spins, 20 yields, then parks from 1 µs up to 1 ms. */
    public static final ListenerIdleSettings DEFAULT = new ListenerIdleSettings(ListenerIdleStrategy.BACKOFF, 100, 20,
            Duration.ofNanos(1_000), Duration.ofMillis(1));

    /** @throws IllegalArgumentException for negative counts or maxPark below minPark */
    public ListenerIdleSettings {
        strategy.factory(maxSpins, maxYields, minPark, maxPark);
    }

    /** Makes idle strategies of the default kind. */
    public Supplier<IdleStrategy> factory() {
        return factory(strategy);
    }

    /** Makes idle strategies of another kind with these parameters. */
    public Supplier<IdleStrategy> factory(ListenerIdleStrategy kind) {
        return kind.factory(maxSpins, maxYields, minPark, maxPark);
    }
}
