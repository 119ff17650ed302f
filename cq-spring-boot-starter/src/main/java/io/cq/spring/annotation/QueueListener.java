package io.cq.spring.annotation;

import io.cq.core.StartPosition;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method to be called with each excerpt of a queue, in order, on a thread of its own
 * ({@code cq-listener-<id>}). The {@link #id()} names the queue's named tailer: a restarted application resumes
 * right after the last excerpt the method returned from. An excerpt whose method threw is retried and then
 * recovered (see {@code cq.listener.*}); it is never committed before the method returns, so delivery is
 * at least once.
 *
 * <p>Parameters, in any order: {@code String} (the excerpt as UTF-8 text), {@code byte[]} (a copy of its bytes),
 * {@link io.cq.core.ReadContext}, {@link io.cq.core.ExcerptBytes} (valid only during the call),
 * {@link Header @Header("cq_index") long}, {@link Header @Header("cq_queue") String},
 * {@link Header @Header("cq_listener") String}, and, with spring-messaging on the class path,
 * {@code Message<String>} or {@code Message<byte[]>}; any other type is the payload object of a message written
 * by {@code QueueTemplate.append(queue, object)} or {@code ExcerptAppender.writeObject} (or the first argument
 * of a method-writer call), decoded through the message layer with its allow-list (docs/messages.md).
 *
 * <p>A method that returns a value replies (docs/spring-boot.md, "Request/reply"): the value goes to the queue
 * the request names in its {@code cq_reply_to} header, else to the method's {@link SendTo} queue, with the
 * request's correlation id; {@code null} sends nothing, a {@code CompletionStage} replies when it completes, and a
 * request whose retries are exhausted gets an error reply naming the listener and the error.
 *
 * <p>On a class, the bean is a method-reader style listener: it implements one or more writer interfaces, and
 * each message excerpt becomes a call of the method it names, with its arguments decoded as that method's
 * parameter types; self-written ({@code BytesMessage}) and primitive arguments are read without allocating.
 * Excerpts that name a method the interfaces do not have, or that are not messages, are skipped (and
 * committed). {@link #interfaces()} limits the dispatch to some of the bean's interfaces.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface QueueListener {
    /** Name of the queue (a key of {@code cq.queues}); property placeholders allowed. */
    String queue();

    /**
     * The listener's id, also the name of its named tailer: 1 to 64 letters, digits, '.', '_' or '-'. Unique
     * per application; property placeholders allowed.
     */
    String id();

    /** "true" or "false" (placeholders allowed); empty uses {@code cq.listener.auto-startup}. */
    String autoStartup() default "";

    /**
     * Bean name of the {@link io.cq.spring.config.QueueListenerContainerFactory} to use; empty uses the default
     * one.
     */
    String containerFactory() default "";

    /**
     * Bean name of the {@link io.cq.spring.listener.ListenerErrorHandler} for exhausted retries; empty uses
     * {@code cq.listener.recoverer}.
     */
    String errorHandler() default "";

    /**
     * "backoff", "sleeping", "yielding" or "busy-spin"; empty uses the container factory's
     * ({@code cq.listener.idle.strategy} for the default one).
     */
    String idleStrategy() default "";

    /** Where a listener without a committed position starts; ignored once it has committed one. */
    StartPosition.Kind startPosition() default StartPosition.Kind.START;

    /** The index to start at with {@link StartPosition.Kind#INDEX}: decimal or 0x-hex; placeholders allowed. */
    String startIndex() default "";

    /** An ISO-8601 instant, e.g. "2026-11-22T00:00:00Z", to start at with {@link StartPosition.Kind#TIME}. */
    String startTime() default "";

    /**
     * On a class only: the writer interfaces whose methods are dispatched to the bean; empty means every interface
     * it implements except those of the JDK and of Spring.
     */
    Class<?>[] interfaces() default {};
}
