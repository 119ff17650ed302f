package io.cq.spring.boot.autoconfigure;

import io.cq.spring.boot.autoconfigure.CqProperties.ListenerProperties;
import io.cq.spring.config.DefaultQueueListenerContainerFactory;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.config.QueueListenerAnnotationBeanPostProcessor;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.DeadLetterErrorHandler;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.LoggingErrorHandler;
import io.cq.spring.listener.StoppingErrorHandler;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * {@link io.cq.spring.annotation.QueueListener} support: the annotation post-processor, the container registry, the
 * default container factory configured from {@code cq.listener.*}, and the default error handler.
 */
@AutoConfiguration(after = CqAutoConfiguration.class)
public final class CqListenerAutoConfiguration {

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
        if (queue != null && queue.isBlank()) {
            queue = null;
        }
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

    /** Applies cq.listener.* to the default factory, and to factories the application makes itself. */
    @Bean
    @ConditionalOnMissingBean
    QueueListenerContainerFactoryConfigurer queueListenerContainerFactoryConfigurer(CqProperties properties,
            @Qualifier(DEFAULT_ERROR_HANDLER) ListenerErrorHandler errorHandler) {
        return new QueueListenerContainerFactoryConfigurer(properties.getListener(), errorHandler);
    }

    @Bean(QueueListenerAnnotationBeanPostProcessor.DEFAULT_CONTAINER_FACTORY)
    @ConditionalOnMissingBean(name = QueueListenerAnnotationBeanPostProcessor.DEFAULT_CONTAINER_FACTORY)
    DefaultQueueListenerContainerFactory queueListenerContainerFactory(
            QueueListenerContainerFactoryConfigurer configurer) {
        DefaultQueueListenerContainerFactory factory = new DefaultQueueListenerContainerFactory();
        configurer.configure(factory);
        return factory;
    }
}
