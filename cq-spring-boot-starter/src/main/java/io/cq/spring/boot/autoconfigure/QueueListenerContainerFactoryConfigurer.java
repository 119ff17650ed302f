package io.cq.spring.boot.autoconfigure;

import io.cq.spring.boot.autoconfigure.CqProperties.Idle;
import io.cq.spring.boot.autoconfigure.CqProperties.ListenerProperties;
import io.cq.spring.boot.autoconfigure.CqProperties.Retry;
import io.cq.spring.config.DefaultQueueListenerContainerFactory;
import io.cq.spring.config.ListenerIdleSettings;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.RetryPolicy;
import io.cq.spring.support.InvalidQueuePropertyException;

/**
 * Applies {@code cq.listener.*} and the default error handler to a container factory, as Boot's configurers do for
 * Kafka and RabbitMQ listener factories: an application that needs a second factory with a few settings changed
 * starts from what the configuration says instead of rebuilding it.
 *
 * <pre>{@code
 * @Bean
 * DefaultQueueListenerContainerFactory patientFactory(QueueListenerContainerFactoryConfigurer configurer) {
 *     DefaultQueueListenerContainerFactory factory = new DefaultQueueListenerContainerFactory();
 *     configurer.configure(factory);
 *     factory.setRetryPolicy(new RetryPolicy(10, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1)));
 *     return factory;
 * }
 * }</pre>
 */
public final class QueueListenerContainerFactoryConfigurer {
    private final ListenerProperties properties;
    private final ListenerErrorHandler errorHandler;
    private final ListenerIdleSettings idle;
    private final RetryPolicy retryPolicy;

    /**
     * Checks the properties at once, so that a wrong value fails start-up with a failure analysis naming it.
     *
     * @throws InvalidQueuePropertyException for idle or retry settings that cannot work
     */
    QueueListenerContainerFactoryConfigurer(ListenerProperties properties, ListenerErrorHandler errorHandler) {
        this.properties = properties;
        this.errorHandler = errorHandler;
        this.idle = idleSettings(properties.getIdle());
        this.retryPolicy = retryPolicy(properties.getRetry());
    }

    /** Sets every {@code cq.listener.*} setting and the default error handler on the factory. */
    public void configure(DefaultQueueListenerContainerFactory factory) {
        factory.setAutoStartup(properties.isAutoStartup());
        factory.setIdleSettings(idle);
        factory.setRetryPolicy(retryPolicy);
        factory.setErrorHandler(errorHandler);
        factory.setIdleEventInterval(properties.getIdleEventInterval());
        factory.setShutdownTimeout(properties.getShutdownTimeout());
    }

    private static ListenerIdleSettings idleSettings(Idle idle) {
        try {
            return new ListenerIdleSettings(idle.getStrategy(), idle.getMaxSpins(), idle.getMaxYields(),
                    idle.getMinPark(), idle.getMaxPark());
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException("cq.listener.idle.max-park", idle.getMaxPark(), e.getMessage(),
                    "Set cq.listener.idle.max-spins and cq.listener.idle.max-yields to 0 or more and "
                            + "cq.listener.idle.max-park to at least cq.listener.idle.min-park ("
                            + idle.getMinPark() + ").", e);
        }
    }

    private static RetryPolicy retryPolicy(Retry retry) {
        try {
            return new RetryPolicy(retry.getMaxAttempts(), retry.getInterval(), retry.getMultiplier(),
                    retry.getMaxInterval());
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException("cq.listener.retry.max-attempts", retry.getMaxAttempts(),
                    e.getMessage(), "Set cq.listener.retry.max-attempts to 1 or more, cq.listener.retry.multiplier to "
                            + "1 or more and cq.listener.retry.max-interval to at least cq.listener.retry.interval.",
                    e);
        }
    }
}
