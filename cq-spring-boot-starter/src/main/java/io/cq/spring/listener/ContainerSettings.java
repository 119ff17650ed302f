package io.cq.spring.listener;

import io.cq.core.idle.IdleStrategy;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a {@link io.cq.spring.config.QueueListenerContainerFactory} decided for one container.
 *
 * @param autoStartup       whether the registry starts it with the application context
 * @param idleStrategy      makes the idle strategy for each run of its thread
 * @param retryPolicy       retries of a failing excerpt
 * @param errorHandler      decides about an excerpt whose retries are exhausted
 * @param idleEventInterval period of {@link io.cq.spring.event.ListenerIdleEvent}s, or null for none
 * @param shutdownTimeout   how long stopping waits for the thread
 */
public record ContainerSettings(boolean autoStartup, Supplier<IdleStrategy> idleStrategy, RetryPolicy retryPolicy,
                                ListenerErrorHandler errorHandler, @Nullable Duration idleEventInterval,
                                Duration shutdownTimeout) {
}
