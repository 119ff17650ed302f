package io.cq.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface whose calls are appended to a queue as method-writer messages (docs/messages.md): the
 * starter makes a bean of it, like Spring Data makes beans of repository interfaces, for every such interface in
 * the application's packages (those of its {@code @SpringBootApplication}). Inject the interface and call it; a
 * {@code @QueueListener} class implementing the same interface receives the calls.
 *
 * <p>The bean is thread-safe: each call borrows an appender (and its method writer) from a small pool of the
 * queue's, so any number of threads, virtual ones included, share it without an appender each. Each call allocates
 * its arguments array (a proxy's cost); code on a zero-allocation path uses
 * {@code Messages.methodWriter(queue.acquireAppender(), type)} directly.
 *
 * <p>A method returning {@code CompletableFuture<T>} (or {@code CompletionStage<T>}) sends a request
 * (docs/spring-boot.md, "Request/reply"): the call as a message, with the request headers, to which a
 * method-level {@code @QueueListener} returning {@code T} replies (it receives the first argument as its payload);
 * the future completes with the reply, or exceptionally when the listener failed or the timeout passed.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface QueueWriter {
    /** Name of the queue (a key of {@code cq.queues}, or a MappedQueue bean's name); placeholders allowed. */
    String queue();

    /**
     * The queue replies to methods returning futures are read from (a key of {@code cq.queues}); placeholders
     * allowed. Empty uses {@code cq.request-reply.reply-queue}.
     */
    String replyQueue() default "";

    /**
     * How long methods returning futures wait for their reply, e.g. "2s" or "500ms"; placeholders allowed. Empty
     * uses {@code cq.request-reply.timeout}.
     */
    String replyTimeout() default "";
}
