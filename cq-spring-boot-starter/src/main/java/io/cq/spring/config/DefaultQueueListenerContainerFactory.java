package io.cq.spring.config;

import io.cq.core.MappedQueue;
import io.cq.core.idle.IdleStrategy;
import io.cq.spring.listener.ContainerSettings;
import io.cq.spring.listener.ListenerEndpoint;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.LoggingErrorHandler;
import io.cq.spring.listener.QueueListenerContainer;
import io.cq.spring.listener.RetryPolicy;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Builds containers from its settings, letting each endpoint override auto-startup, the idle strategy and the error
 * handler (looked up by bean name).
 *
 * <p>The starter defines one, configured from {@code cq.listener.*}. For listeners that need other settings, define
 * another as a bean, have Boot's {@code QueueListenerContainerFactoryConfigurer} apply {@code cq.listener.*} to it,
 * change what differs and name the bean in {@code @QueueListener(containerFactory = ...)}. Settings are read when a
 * container is created, so change them before the application context refreshes.
 */
public final class DefaultQueueListenerContainerFactory
        implements QueueListenerContainerFactory, ApplicationEventPublisherAware, BeanFactoryAware {
    private boolean autoStartup = true;
    private ListenerIdleSettings idle = ListenerIdleSettings.DEFAULT;
    private RetryPolicy retryPolicy = new RetryPolicy(3, Duration.ofMillis(100), 2.0, Duration.ofSeconds(10));
    private ListenerErrorHandler errorHandler = new LoggingErrorHandler();
    private @Nullable Duration idleEventInterval;
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private ApplicationEventPublisher events = event -> { };
    private @Nullable BeanFactory beanFactory;

    @Override
    public QueueListenerContainer createContainer(ListenerEndpoint endpoint, MappedQueue queue) {
        boolean start = Objects.requireNonNullElse(endpoint.autoStartup(), autoStartup);
        Supplier<IdleStrategy> idleStrategy = endpoint.idleStrategy().isEmpty() ? idle.factory()
                : idleStrategy(endpoint);
        ListenerErrorHandler handler = endpoint.errorHandlerBean().isEmpty() ? errorHandler
                : errorHandler(endpoint);
        ContainerSettings settings = new ContainerSettings(start, idleStrategy, retryPolicy, handler,
                idleEventInterval, shutdownTimeout);
        return new QueueListenerContainer(endpoint, queue, settings, events);
    }

    private Supplier<IdleStrategy> idleStrategy(ListenerEndpoint endpoint) {
        try {
            return idle.factory(ListenerIdleStrategy.fromAlias(endpoint.idleStrategy()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("@QueueListener(id = \"" + endpoint.id() + "\") asks for idleStrategy=\""
                    + endpoint.idleStrategy() + "\": " + e.getMessage() + " (or leave it empty for the factory's "
                    + idle.strategy().alias() + ")", e);
        }
    }

    private ListenerErrorHandler errorHandler(ListenerEndpoint endpoint) {
        if (beanFactory == null) {
            throw new IllegalStateException("@QueueListener(id = \"" + endpoint.id() + "\") names the error handler '"
                    + endpoint.errorHandlerBean()
                    + "', but this container factory is not a bean and cannot look it up");
        }
        return beanFactory.getBean(endpoint.errorHandlerBean(), ListenerErrorHandler.class);
    }

    /** Whether containers start with the application context, unless their listener says otherwise. Default true. */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    /** The idle strategy and its parameters. Default {@link ListenerIdleSettings#DEFAULT}. */
    public void setIdleSettings(ListenerIdleSettings idle) {
        this.idle = Objects.requireNonNull(idle, "idle");
    }

    /** Retries of a failing excerpt. Default 3 attempts, 100 ms doubling up to 10 s. */
    public void setRetryPolicy(RetryPolicy retryPolicy) {
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
    }

    /** Decides about an excerpt whose retries ran out, for listeners that name none. Default: log and skip. */
    public void setErrorHandler(ListenerErrorHandler errorHandler) {
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
    }

    /** Period of {@code ListenerIdleEvent}s while a listener receives nothing, or null (the default) for none. */
    public void setIdleEventInterval(@Nullable Duration idleEventInterval) {
        this.idleEventInterval = idleEventInterval;
    }

    /** How long stopping a container waits for its thread to finish the excerpt in hand. Default 10 s. */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /** Receives the containers' events; set by the application context when the factory is a bean. */
    @Override
    public void setApplicationEventPublisher(ApplicationEventPublisher events) {
        this.events = events;
    }

    /** Finds the error handlers that listeners name; set by the application context when the factory is a bean. */
    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    public boolean isAutoStartup() {
        return autoStartup;
    }

    public ListenerIdleSettings idleSettings() {
        return idle;
    }

    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    public ListenerErrorHandler errorHandler() {
        return errorHandler;
    }

    public @Nullable Duration idleEventInterval() {
        return idleEventInterval;
    }

    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }
}
