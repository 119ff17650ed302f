package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.support.InvalidQueuePropertyException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

import java.time.Duration;

/**
 * Makes the bean behind a {@link QueueWriter} interface: resolves its queue (placeholders allowed) among the queue
 * beans, and its reply settings when it has methods returning futures, and builds the proxy. Failures name the
 * property to fix, for the failure analyzer. The starter's registrar calls it for every interface it finds.
 */
public final class QueueWriterFactory {
    private final Environment environment;
    private final BeanFactory beanFactory;

    public QueueWriterFactory(Environment environment, BeanFactory beanFactory) {
        this.environment = environment;
        this.beanFactory = beanFactory;
    }

    /** The writer for {@code type}, an interface annotated {@link QueueWriter}. */
    public <T> T create(Class<T> type) {
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
