package io.cq.spring.boot.autoconfigure;

import io.cq.spring.boot.autoconfigure.CqProperties.Idle;
import io.cq.spring.boot.autoconfigure.CqProperties.ListenerProperties;
import io.cq.spring.boot.autoconfigure.CqProperties.Retry;
import io.cq.spring.config.DefaultQueueListenerContainerFactory;
import io.cq.spring.config.ListenerIdleSettings;
import io.cq.spring.config.ListenerIdleStrategy;
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
     * @throws InvalidQueuePropertyException for idle, retry or timing settings that cannot work
     */
    QueueListenerContainerFactoryConfigurer(ListenerProperties properties, ListenerErrorHandler errorHandler) {
        this.properties = properties;
        this.errorHandler = errorHandler;
        this.idle = idleSettings(properties.getIdle());
        this.retryPolicy = retryPolicy(properties.getRetry());
        checkTimings(properties);
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

    // Each check names the one property that is wrong: the records below check all their values together and could
    // only say that one of them is.
    private static ListenerIdleSettings idleSettings(Idle idle) {
        String prefix = "cq.listener.idle.";
        requireNotNegative(prefix + "max-spins", idle.getMaxSpins());
        requireNotNegative(prefix + "max-yields", idle.getMaxYields());
        if (idle.getMinPark().isNegative()) {
            throw new InvalidQueuePropertyException(prefix + "min-park", idle.getMinPark(),
                    "the first park must not be negative", "Set " + prefix + "min-park to 0 or more, e.g. 1us.", null);
        }
        boolean sleeping = idle.getStrategy() == ListenerIdleStrategy.SLEEPING;
        if (idle.getMaxPark().compareTo(idle.getMinPark()) < 0 || sleeping && !idle.getMaxPark().isPositive()) {
            throw new InvalidQueuePropertyException(prefix + "max-park", idle.getMaxPark(),
                    "the longest park must be at least " + prefix + "min-park (" + idle.getMinPark() + ")"
                            + (sleeping ? ", and positive: it is the sleeping strategy's period" : ""),
                    "Set " + prefix + "max-park to at least " + prefix + "min-park (" + idle.getMinPark()
                            + ") and above 0, e.g. 1ms (the default).", null);
        }
        return new ListenerIdleSettings(idle.getStrategy(), idle.getMaxSpins(), idle.getMaxYields(),
                idle.getMinPark(), idle.getMaxPark());
    }

    private static RetryPolicy retryPolicy(Retry retry) {
        String prefix = "cq.listener.retry.";
        if (retry.getMaxAttempts() < 1) {
            throw new InvalidQueuePropertyException(prefix + "max-attempts", retry.getMaxAttempts(),
                    "an excerpt is handed to its listener at least once",
                    "Set " + prefix + "max-attempts to 1 or more (1: no retry).", null);
        }
        if (retry.getInterval().isNegative()) {
            throw new InvalidQueuePropertyException(prefix + "interval", retry.getInterval(),
                    "the pause before the first retry must not be negative",
                    "Set " + prefix + "interval to 0 or more, e.g. 100ms (the default).", null);
        }
        if (!(retry.getMultiplier() >= 1) || Double.isInfinite(retry.getMultiplier())) {
            throw new InvalidQueuePropertyException(prefix + "multiplier", retry.getMultiplier(),
                    "the pause may only grow from one retry to the next",
                    "Set " + prefix + "multiplier to 1 (a fixed pause) or more, e.g. 2.", null);
        }
        if (retry.getMaxInterval().compareTo(retry.getInterval()) < 0) {
            throw new InvalidQueuePropertyException(prefix + "max-interval", retry.getMaxInterval(),
                    "the longest pause must be at least " + prefix + "interval (" + retry.getInterval() + ")",
                    "Set " + prefix + "max-interval to " + retry.getInterval() + " or more, or lower " + prefix
                            + "interval.", null);
        }
        return new RetryPolicy(retry.getMaxAttempts(), retry.getInterval(), retry.getMultiplier(),
                retry.getMaxInterval());
    }

    private static void checkTimings(ListenerProperties properties) {
        if (properties.getShutdownTimeout().isNegative()) {
            throw new InvalidQueuePropertyException("cq.listener.shutdown-timeout", properties.getShutdownTimeout(),
                    "stopping a listener cannot wait a negative time for the excerpt in hand",
                    "Set cq.listener.shutdown-timeout to 0 (do not wait) or more, e.g. 10s (the default).", null);
        }
        if (properties.getIdleEventInterval() != null && !properties.getIdleEventInterval().isPositive()) {
            throw new InvalidQueuePropertyException("cq.listener.idle-event-interval",
                    properties.getIdleEventInterval(), "a listener would announce it is idle on every empty poll",
                    "Set cq.listener.idle-event-interval to a positive duration such as 30s, or remove it to publish "
                            + "no ListenerIdleEvent.", null);
        }
    }

    private static void requireNotNegative(String property, int count) {
        if (count < 0) {
            throw new InvalidQueuePropertyException(property, count, "a count must not be negative",
                    "Set " + property + " to 0 or more.", null);
        }
    }
}
