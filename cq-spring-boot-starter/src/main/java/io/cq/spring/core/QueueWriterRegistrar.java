package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.support.InvalidQueuePropertyException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import java.beans.Introspector;
import java.time.Duration;
import java.util.List;

/**
 * Registers a bean for every {@link QueueWriter} interface in the application's packages
 * ({@link AutoConfigurationPackages}), named after the interface ({@code orderEvents} for {@code OrderEvents}).
 * A bean the application defines with that name wins. The writer is the primary bean of its interface, so that
 * injecting the interface gets it even though a class-level listener implements the interface too.
 */
public final class QueueWriterRegistrar implements ImportBeanDefinitionRegistrar {
    private final Environment environment;
    private final BeanFactory beanFactory;

    public QueueWriterRegistrar(Environment environment, BeanFactory beanFactory) {
        this.environment = environment;
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        if (!AutoConfigurationPackages.has(beanFactory)) {
            return;
        }
        List<String> packages = AutoConfigurationPackages.get(beanFactory);
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false,
                environment) {
            @Override
            protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
                return definition.getMetadata().isInterface() && definition.getMetadata().isIndependent();
            }
        };
        scanner.addIncludeFilter(new AnnotationTypeFilter(QueueWriter.class, false, true));
        ClassLoader classLoader = beanFactory instanceof ConfigurableBeanFactory configurable
                ? configurable.getBeanClassLoader() : ClassUtils.getDefaultClassLoader();
        for (String basePackage : packages) {
            for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
                Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader);
                String beanName = Introspector.decapitalize(type.getSimpleName());
                if (registry.containsBeanDefinition(beanName)) {
                    continue;
                }
                registry.registerBeanDefinition(beanName, definition(type));
            }
        }
    }

    private <T> RootBeanDefinition definition(Class<T> type) {
        RootBeanDefinition definition = new RootBeanDefinition(type);
        // Primary: the listener that receives these calls implements the same interface, and injecting the
        // interface means sending.
        definition.setPrimary(true);
        definition.setInstanceSupplier(() -> {
            String queueName = environment.resolveRequiredPlaceholders(type.getAnnotation(QueueWriter.class).queue());
            MappedQueue queue;
            try {
                queue = beanFactory.getBean(queueName, MappedQueue.class);
            } catch (NoSuchBeanDefinitionException e) {
                throw new InvalidQueuePropertyException("cq.queues." + queueName, "(missing)",
                        "@QueueWriter " + type.getName() + " writes to queue '" + queueName
                        + "', which is not configured",
                        "Configure the queue, e.g. cq.queues." + queueName + ".path=..., or correct the queue name.",
                        e);
            }
            if (RequestWriterProxy.hasRequestMethods(type)) {
                return requestWriter(type, queue, queueName);
            }
            return QueueWriterProxy.create(type, queue, queueName,
                    beanFactory.getBeanProvider(ObservationRegistry.class).getIfAvailable());
        });
        return definition;
    }

    /** A writer whose methods returning futures send requests, with the reply settings of its annotation. */
    private <T> T requestWriter(Class<T> type, MappedQueue queue, String queueName) {
        QueueWriter annotation = type.getAnnotation(QueueWriter.class);
        ReplyReaders replies = beanFactory.getBean(ReplyReaders.class);
        String replyQueue = environment.resolveRequiredPlaceholders(annotation.replyQueue());
        if (replyQueue.isEmpty()) {
            replyQueue = replies.defaultReplyQueueOrNull();
        }
        if (replyQueue == null || !replies.hasQueue(replyQueue)) {
            String property = annotation.replyQueue().isEmpty() ? "cq.request-reply.reply-queue" : "cq.queues."
                    + replyQueue;
            throw new InvalidQueuePropertyException(property, replyQueue == null ? "(missing)" : replyQueue,
                    "@QueueWriter " + type.getName() + " has methods returning futures, whose replies are read from "
                    + (replyQueue == null ? "a reply queue, and none is set" : "queue '" + replyQueue
                    + "', which is not configured"),
                    "Set cq.request-reply.reply-queue or @QueueWriter(replyQueue = ...) to a queue configured under "
                    + "cq.queues.", null);
        }
        String timeoutText = environment.resolveRequiredPlaceholders(annotation.replyTimeout());
        @Nullable Duration timeout;
        try {
            timeout = timeoutText.isEmpty() ? null : DurationStyle.detectAndParse(timeoutText);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("@QueueWriter " + type.getName() + " has replyTimeout = \"" + timeoutText
                    + "\"; give a duration such as \"2s\" or \"500ms\"", e);
        }
        return QueueWriterProxy.create(type, queue, queueName, new AppenderPool(queue),
                SendObservations.of(beanFactory.getBeanProvider(ObservationRegistry.class).getIfAvailable()), replies,
                replyQueue, timeout);
    }
}
