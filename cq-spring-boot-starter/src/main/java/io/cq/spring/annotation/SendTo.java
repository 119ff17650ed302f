package io.cq.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The queue a method-level {@link QueueListener} appends its return values to when the excerpt it handled names
 * no reply queue of its own (docs/spring-boot.md, "Request/reply"): a request's {@code cq_reply_to} header wins,
 * as a JMS reply-to does over Spring's {@code @SendTo}. Each value is appended as an object message, with the
 * request's correlation id when it had one; {@code null} appends nothing. Spring Messaging's {@code @SendTo} works
 * as well (its first queue).
 *
 * <p>The queue must be configured and writable: a start-up failure says so otherwise.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface SendTo {
    /** Name of the queue (a key of {@code cq.queues}); placeholders allowed. */
    String value();
}
