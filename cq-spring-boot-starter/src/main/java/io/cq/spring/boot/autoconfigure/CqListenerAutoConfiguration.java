package io.cq.spring.boot.autoconfigure;

import io.cq.core.idle.IdleStrategy;
import io.cq.spring.annotation.QueueListenerAnnotationBeanPostProcessor;
import io.cq.spring.boot.autoconfigure.CqProperties.ListenerProperties;
import io.cq.spring.config.ContainerSettings;
import io.cq.spring.config.DefaultQueueListenerContainerFactory;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.config.QueueListenerContainerFactory;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.DeadLetterErrorHandler;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.LoggingErrorHandler;
import io.cq.spring.listener.RetryPolicy;
import io.cq.spring.listener.StoppingErrorHandler;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link io.cq.spring.annotation.QueueListener} support: the annotation post-processor, the container registry, the
 * default container factory configured from {@code cq.listener.*}, and the default error handler.
 */
@AutoConfiguration(after = CqAutoConfiguration.class)
public class CqListenerAutoConfiguration {

    /** Static: a post-processor must not make its configuration class an early bean. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static QueueListenerAnnotationBeanPostProcessor queueListenerAnnotationBeanPostProcessor() {
        return new QueueListenerAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    ListenerContainerRegistry listenerContainerRegistry() {
        return new ListenerContainerRegistry();
    }

    /** Bean name of the error handler for listeners that do not name one; define a bean of this name to replace it. */
    public static final String DEFAULT_ERROR_HANDLER = "queueListenerErrorHandler";

    /**
     * The handler for exhausted retries chosen by {@code cq.listener.recoverer}. Backs off by name only: an
     * application may define other handlers for {@code @QueueListener(errorHandler = ...)} and keep this one.
     */
    @Bean(DEFAULT_ERROR_HANDLER)
    @ConditionalOnMissingBean(name = DEFAULT_ERROR_HANDLER)
    ListenerErrorHandler queueListenerErrorHandler(CqProperties properties, QueueTemplate template) {
        ListenerProperties listener = properties.getListener();
        return switch (listener.getRecoverer()) {
            case LOG_AND_SKIP -> new LoggingErrorHandler();
            case STOP_CONTAINER -> new StoppingErrorHandler();
            case DEAD_LETTER -> deadLetter(listener.getDeadLetterQueue(), template);
        };
    }

    private static ListenerErrorHandler deadLetter(String queue, QueueTemplate template) {
        if (queue == null || !template.queueNames().contains(queue)) {
            throw new InvalidQueuePropertyException("cq.listener.dead-letter-queue", queue,
                    "cq.listener.recoverer=dead-letter needs a configured queue to move failed excerpts to, and "
                            + (queue == null ? "none is set" : "there is no queue of that name; the queues are "
                            + template.queueNames()),
                    "Set cq.listener.dead-letter-queue to a queue configured under cq.queues (e.g. cq.queues."
                            + (queue == null ? "orders-dlq" : queue)
                            + ".path), or choose another cq.listener.recoverer.",
                    null);
        }
        return new DeadLetterErrorHandler(template, queue);
    }

    @Bean(QueueListenerAnnotationBeanPostProcessor.DEFAULT_CONTAINER_FACTORY)
    @ConditionalOnMissingBean(name = QueueListenerAnnotationBeanPostProcessor.DEFAULT_CONTAINER_FACTORY)
    QueueListenerContainerFactory queueListenerContainerFactory(
            CqProperties properties, @Qualifier(DEFAULT_ERROR_HANDLER) ListenerErrorHandler errorHandler,
            BeanFactory beanFactory, ApplicationEventPublisher events) {
        ListenerProperties listener = properties.getListener();
        Map<String, Supplier<IdleStrategy>> idleStrategies;
        try {
            idleStrategies = DefaultQueueListenerContainerFactory.idleStrategies(listener.getIdleMaxSpins(),
                    listener.getIdleMaxYields(), listener.getIdleMinPark(), listener.getIdleMaxPark());
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException("cq.listener.idle-max-park", listener.getIdleMaxPark(),
                    e.getMessage(),
                    "Set cq.listener.idle-max-spins and idle-max-yields to 0 or more and cq.listener.idle-max-park to "
                            + "at least cq.listener.idle-min-park.", e);
        }
        Supplier<IdleStrategy> defaultIdle = idleStrategies.get(listener.getIdleStrategy());
        if (defaultIdle == null) {
            throw new InvalidQueuePropertyException("cq.listener.idle-strategy", listener.getIdleStrategy(),
                    "there is no idle strategy of that name",
                    "Set cq.listener.idle-strategy to one of " + idleStrategies.keySet() + ".", null);
        }
        RetryPolicy retry;
        try {
            retry = new RetryPolicy(listener.getMaxAttempts(), listener.getRetryInterval(),
                    listener.getRetryMultiplier(),
                    listener.getRetryMaxInterval());
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException("cq.listener.max-attempts", listener.getMaxAttempts(),
                    e.getMessage(),
                    "Set cq.listener.max-attempts to 1 or more, cq.listener.retry-multiplier to 1 or more and "
                            + "cq.listener.retry-max-interval to at least cq.listener.retry-interval.", e);
        }
        ContainerSettings defaults = new ContainerSettings(listener.isAutoStartup(), defaultIdle, retry, errorHandler,
                listener.getIdleEventInterval(), listener.getShutdownTimeout());
        return new DefaultQueueListenerContainerFactory(defaults, listener.getIdleStrategy(), idleStrategies,
                name -> beanFactory.getBean(name, ListenerErrorHandler.class), events);
    }
}
