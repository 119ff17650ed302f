package io.cq.spring.config;

import io.cq.core.MappedQueue;
import io.cq.core.idle.BackoffIdleStrategy;
import io.cq.core.idle.IdleStrategy;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.QueueListenerContainer;
import org.springframework.context.ApplicationEventPublisher;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Builds containers from default settings, letting each endpoint override auto-startup, the idle strategy and
 * the error handler (looked up by bean name).
 */
public final class DefaultQueueListenerContainerFactory implements QueueListenerContainerFactory {
    private final ContainerSettings defaults;
    private final String defaultIdleStrategy;
    private final Map<String, Supplier<IdleStrategy>> idleStrategies;
    private final Function<String, ListenerErrorHandler> errorHandlersByName;
    private final ApplicationEventPublisher events;

    /**
     * @param defaults            settings for endpoints that do not override them
     * @param defaultIdleStrategy the alias that {@code defaults.idleStrategy()} stands for
     * @param idleStrategies      idle strategies by alias ("backoff", "sleeping", ...)
     * @param errorHandlersByName finds an error handler bean by name
     * @param events              receives the containers' events
     */
    public DefaultQueueListenerContainerFactory(ContainerSettings defaults, String defaultIdleStrategy,
                                                Map<String, Supplier<IdleStrategy>> idleStrategies,
                                                Function<String, ListenerErrorHandler> errorHandlersByName,
                                                ApplicationEventPublisher events) {
        this.defaults = defaults;
        this.defaultIdleStrategy = defaultIdleStrategy;
        this.idleStrategies = Map.copyOf(idleStrategies);
        this.errorHandlersByName = errorHandlersByName;
        this.events = events;
    }

    @Override
    public QueueListenerContainer createContainer(ListenerEndpoint endpoint, MappedQueue queue) {
        boolean autoStartup = Objects.requireNonNullElse(endpoint.autoStartup(), defaults.autoStartup());
        Supplier<IdleStrategy> idle = endpoint.idleStrategy().isEmpty() ? defaults.idleStrategy()
                : idleStrategy(endpoint);
        ListenerErrorHandler errorHandler = endpoint.errorHandlerBean().isEmpty() ? defaults.errorHandler()
                : errorHandlersByName.apply(endpoint.errorHandlerBean());
        ContainerSettings settings = new ContainerSettings(autoStartup, idle, defaults.retryPolicy(), errorHandler,
                defaults.idleEventInterval(), defaults.shutdownTimeout());
        return new QueueListenerContainer(endpoint, queue, settings, events);
    }

    private Supplier<IdleStrategy> idleStrategy(ListenerEndpoint endpoint) {
        Supplier<IdleStrategy> idle = idleStrategies.get(endpoint.idleStrategy());
        if (idle == null) {
            throw new IllegalStateException("@QueueListener(id = \"" + endpoint.id() + "\") asks for idleStrategy=\""
                    + endpoint.idleStrategy() + "\"; use one of " + idleStrategies.keySet()
                    + " (or leave it empty for cq.listener.idle-strategy=" + defaultIdleStrategy + ")");
        }
        return idle;
    }

    /** The idle strategies by alias, with the backoff and sleeping ones tuned by these parameters. */
    public static Map<String, Supplier<IdleStrategy>> idleStrategies(int maxSpins, int maxYields, Duration minPark,
                                                                     Duration maxPark) {
        // Built once here, so that a wrong parameter fails start-up rather than a listener thread.
        new BackoffIdleStrategy(maxSpins, maxYields, minPark, maxPark);
        return Map.of(
                "backoff", () -> new BackoffIdleStrategy(maxSpins, maxYields, minPark, maxPark),
                "sleeping", () -> IdleStrategy.sleeping(maxPark),
                "yielding", IdleStrategy::yielding,
                "busy-spin", IdleStrategy::busySpin);
    }
}
