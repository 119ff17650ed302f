package io.cq.spring.core;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Appends single excerpts to the application's queues by name, for code that does not keep an appender of its
 * own. Every append goes through {@link #write(String, Consumer)}, which is where typed appends (a payload object
 * encoded by the message layer) plug in.
 *
 * <p>With an {@link ObservationRegistry}, each append is observed as {@code cq.send}; with Micrometer Tracing that is
 * a producer span, and the trace context travels in the excerpt when it is a message ({@link #append},
 * {@link #methodWriter}), so that a {@code @QueueListener} continues the trace (docs/spring-boot.md, "Tracing").
 * Text and byte excerpts ({@link #appendText}, {@link #appendBytes}, {@link #write}) are the application's bytes
 * and carry nothing but them.
 *
 * <p>Thread-safe: each append borrows an appender of the queue for its duration from a small pool
 * ({@code AppenderPool}), so any number of threads, virtual ones included, share the template without an appender
 * each.
 */
public final class QueueTemplate {
    private final Map<String, MappedQueue> queues;
    private final Map<String, AppenderPool> pools;
    private final @Nullable SendObservations observations;
    private final @Nullable ReplyReaders replies;

    /**
     * A template without request/reply: {@code sendAndReceive} throws.
     *
     * @param queues the queues by name (for the starter: the MappedQueue beans by bean name)
     */
    public QueueTemplate(Map<String, MappedQueue> queues) {
        this(queues, null);
    }

    /**
     * @param queues   the queues by name (for the starter: the MappedQueue beans by bean name)
     * @param registry observes each append ({@code cq.send}) and, with Micrometer Tracing, puts the trace context
     *                 into message excerpts; null observes nothing
     */
    public QueueTemplate(Map<String, MappedQueue> queues, @Nullable ObservationRegistry registry) {
        this(queues, registry, null);
    }

    /**
     * @param queues   the queues by name (for the starter: the MappedQueue beans by bean name)
     * @param registry observes each append ({@code cq.send}) and, with Micrometer Tracing, puts the trace context
     *                 into message excerpts; null observes nothing
     * @param replies  the reply readers of {@code sendAndReceive} and of writer interfaces returning futures; null
     *                 for a template without request/reply
     */
    public QueueTemplate(Map<String, MappedQueue> queues, @Nullable ObservationRegistry registry,
                         @Nullable ReplyReaders replies) {
        this.observations = SendObservations.of(registry);
        this.replies = replies;
        this.queues = Map.copyOf(queues);
        Map<String, AppenderPool> byName = new HashMap<>();
        this.queues.forEach((name, queue) -> byName.put(name, new AppenderPool(queue)));
        this.pools = Map.copyOf(byName);
    }

    /** Appends the text's UTF-8 bytes as one excerpt and returns its index (a listener reads it as a String). */
    public long appendText(String queue, CharSequence text) {
        Objects.requireNonNull(text, "text");
        return appendBytes(queue, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Appends the bytes as one excerpt and returns its index. */
    public long appendBytes(String queue, byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        return write(queue, excerpt -> excerpt.writeBytes(bytes));
    }

    /**
     * Appends one excerpt written by {@code writer} and returns its index. The queue's write lock is held while the
     * writer runs: write and return promptly. When the writer throws, nothing is appended and the exception
     * propagates.
     */
    public long write(String queue, Consumer<ExcerptBytes> writer) {
        Objects.requireNonNull(writer, "writer");
        try (AppenderPool.Lease lease = pool(queue).borrow()) {
            if (observations == null) {
                return write(lease, writer);
            }
            SendObservations.Send send = observations.start(queue, lease.headers());
            try {
                return send.appended(write(lease, writer));
            } catch (RuntimeException | Error e) {
                send.failed(e);
                throw e;
            } finally {
                send.stop();
            }
        }
    }

    private static long write(AppenderPool.Lease lease, Consumer<ExcerptBytes> writer) {
        try (WriteContext context = lease.appender().writingDocument()) {
            try {
                writer.accept(context.bytes());
            } catch (RuntimeException | Error e) {
                context.rollbackOnClose();
                throw e;
            }
            return context.index();
        }
    }

    /**
     * Appends an object as a message excerpt: a CBOR document through the message layer (docs/messages.md), which a
     * {@code @QueueListener} method receives by declaring a parameter of its type (a {@code String} parameter reads
     * a text appended this way as the text). Returns the excerpt's index. Carries the trace context of the send.
     */
    public long append(String queue, Object payload) {
        Objects.requireNonNull(payload, "payload");
        try (AppenderPool.Lease lease = pool(queue).borrow()) {
            if (observations == null) {
                return Messages.writeObject(lease.appender(), payload, lease.headers());
            }
            SendObservations.Send send = observations.start(queue, lease.headers());
            try {
                return send.appended(Messages.writeObject(lease.appender(), payload, lease.headers()));
            } catch (RuntimeException | Error e) {
                send.failed(e);
                throw e;
            } finally {
                send.stop();
            }
        }
    }

    /**
     * {@link #append(String, Object)} with the pairs {@code headers} holds after the object (none when it is empty),
     * which a listener reads with {@code @Header} (docs/messages.md, "Headers"). Returns the excerpt's index.
     */
    public long append(String queue, Object payload, TextHeaders headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        try (AppenderPool.Lease lease = pool(queue).borrow()) {
            return Messages.writeObject(lease.appender(), payload, headers);
        }
    }

    /**
     * Appends {@code payload} to {@code requestQueue} as a request (docs/spring-boot.md, "Request/reply") and returns
     * the future of its reply, read from {@code cq.request-reply.reply-queue}, within
     * {@code cq.request-reply.timeout}. See {@link #sendAndReceive(String, Object, Class, String, Duration)}.
     */
    public <R> CompletableFuture<R> sendAndReceive(String requestQueue, Object payload, Class<R> replyType) {
        return sendAndReceive(requestQueue, payload, replyType, null, null);
    }

    /**
     * Appends {@code payload} to {@code requestQueue} as a request: an object message (as {@link #append} writes)
     * with the request headers {@code cq_correlation_id} and {@code cq_reply_to}. A replying {@code @QueueListener}
     * answers on the reply queue, and the future completes with the reply decoded as {@code replyType}; with a
     * {@code ReplyErrorException} (naming the listener and its error) when the listener failed; with a
     * {@code ReplyTimeoutException} when no reply came within the timeout. The request is appended when this
     * returns; the reply queue's reader was placed before it, so no reply is missed.
     *
     * @param replyQueue the queue to read the reply from, configured in this application under the name that the
     *                   responder knows it by; null for {@code cq.request-reply.reply-queue}
     * @param timeout    null for {@code cq.request-reply.timeout}
     * @throws IllegalStateException    when this template has no reply readers or no reply queue is set
     * @throws IllegalArgumentException when a queue is not configured
     */
    public <R> CompletableFuture<R> sendAndReceive(String requestQueue, Object payload, Class<R> replyType,
                                                   @Nullable String replyQueue, @Nullable Duration timeout) {
        Objects.requireNonNull(payload, "payload");
        AppenderPool pool = pool(requestQueue);
        return replies().request(requestQueue, replyQueue, replyType, timeout, headers -> {
            try (AppenderPool.Lease lease = pool.borrow()) {
                if (observations == null) {
                    Messages.writeObject(lease.appender(), payload, headers);
                    return;
                }
                // The trace context joins the request headers, so the replying listener runs in the requester's trace.
                SendObservations.Send send = observations.start(requestQueue, headers);
                try {
                    send.appended(Messages.writeObject(lease.appender(), payload, headers));
                } catch (RuntimeException | Error e) {
                    send.failed(e);
                    throw e;
                } finally {
                    send.stop();
                }
            }
        });
    }

    /** The reply readers behind {@code sendAndReceive}. */
    public ReplyReaders replies() {
        if (replies == null) {
            throw new IllegalStateException("this QueueTemplate was made without ReplyReaders, so it cannot wait "
                    + "for replies; the starter's template has them (or construct it with QueueTemplate(queues, "
                    + "replyReaders))");
        }
        return replies;
    }

    /**
     * A method writer of {@code type} on the queue, which any thread may call: each call borrows an appender of the
     * template's pool, as a {@link io.cq.spring.annotation.QueueWriter} bean does, and is observed and traced like the
     * template's other sends. Make it once and keep it. Methods returning {@code CompletableFuture<T>} send requests
     * whose replies are read from {@code cq.request-reply.reply-queue} within {@code cq.request-reply.timeout} (see
     * {@link #sendAndReceive}).
     */
    public <T> T methodWriter(String queue, Class<T> type) {
        return QueueWriterProxy.create(type, queue(queue), queue, pool(queue), observations, replies, null, null);
    }

    private AppenderPool pool(String name) {
        AppenderPool pool = pools.get(name);
        if (pool == null) {
            queue(name);
        }
        return pool;
    }

    /** The queue of that name. */
    public MappedQueue queue(String name) {
        MappedQueue queue = queues.get(name);
        if (queue == null) {
            throw new IllegalArgumentException("no queue named '" + name + "'; the queues are " + queues.keySet()
                    + " (configure one with cq.queues." + name + ".*)");
        }
        return queue;
    }

    /** The names of the queues this template appends to, sorted. */
    public Set<String> queueNames() {
        return new TreeMap<>(queues).keySet();
    }
}
