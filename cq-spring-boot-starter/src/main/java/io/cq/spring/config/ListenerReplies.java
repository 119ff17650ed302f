package io.cq.spring.config;

import io.cq.core.MappedQueue;
import io.cq.spring.annotation.SendTo;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

import java.lang.reflect.Method;
import java.util.function.UnaryOperator;

/** What the annotation post-processor needs to know about a listener method's replies ({@link SendTo}). */
final class ListenerReplies {
    private static final String MESSAGING_SEND_TO = "org.springframework.messaging.handler.annotation.SendTo";

    private ListenerReplies() {
    }

    /**
     * The queue of the method's {@link SendTo}, or of Spring Messaging's (its first destination, looked up by name
     * so that spring-messaging stays optional), with placeholders resolved; null when it has neither.
     */
    static @Nullable String sendTo(Method method, UnaryOperator<String> resolver) {
        SendTo own = method.getAnnotation(SendTo.class);
        if (own != null) {
            return resolver.apply(own.value());
        }
        MergedAnnotation<?> messaging = MergedAnnotations.from(method).get(MESSAGING_SEND_TO);
        if (!messaging.isPresent()) {
            return null;
        }
        String[] queues = messaging.getStringArray("value");
        return queues.length == 0 || queues[0].isEmpty() ? null : resolver.apply(queues[0]);
    }

    /** Fails start-up, for the failure analyzer, when the {@code @SendTo} queue is missing or read-only. */
    static void requireWritableQueue(BeanFactory beans, String queueName, String where) {
        MappedQueue queue;
        try {
            queue = beans.getBean(queueName, MappedQueue.class);
        } catch (NoSuchBeanDefinitionException e) {
            throw new InvalidQueuePropertyException("cq.queues." + queueName, "(missing)",
                    where + " sends its return values to queue '" + queueName + "' (@SendTo), which is not configured",
                    "Configure the queue, e.g. cq.queues." + queueName
                            + ".path=..., or correct the @SendTo queue name.", e);
        }
        if (queue.isReadOnly()) {
            throw new InvalidQueuePropertyException("cq.queues." + queueName + ".read-only", true,
                    where + " sends its return values to queue '" + queueName + "' (@SendTo), which is read-only",
                    "Set cq.queues." + queueName + ".read-only=false, or send to another queue.", null);
        }
    }
}
