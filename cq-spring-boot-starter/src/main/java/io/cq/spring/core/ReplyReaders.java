package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.cq.core.message.ReplyReader;
import io.cq.core.message.TextHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The application's reply readers (docs/spring-boot.md, "Request/reply"): one {@link ReplyReader} per reply
 * queue, opened by the first request that names the queue and shared by every requester of the application
 * ({@code QueueTemplate.sendAndReceive}, {@code @QueueWriter} methods returning a future), with the reply queue
 * and timeout of requests that name none ({@code cq.request-reply.*} in Boot).
 *
 * <p>A {@link SmartLifecycle} that stops first when the context closes: the requests still waiting then fail with
 * a {@code QueueClosedException} at once, so that a listener waiting for a reply does not hold up the listeners'
 * shutdown, and the readers are closed before their queues. Requests after that throw until the context starts
 * again. Thread-safe.
 */
public final class ReplyReaders implements SmartLifecycle {
    private final Map<String, MappedQueue> queues;
    private final @Nullable String defaultReplyQueue;
    private final Duration defaultTimeout;
    private final Map<String, ReplyReader> readers = new ConcurrentHashMap<>();
    private volatile boolean running = true;

    /**
     * @param queues            the queues replies may be read from, by name (the starter: the MappedQueue beans)
     * @param defaultReplyQueue the reply queue of requests that name none, or null to require one per request
     * @param defaultTimeout    the timeout of requests that give none
     */
    public ReplyReaders(Map<String, MappedQueue> queues, @Nullable String defaultReplyQueue,
                        Duration defaultTimeout) {
        this.queues = Map.copyOf(queues);
        this.defaultReplyQueue = defaultReplyQueue;
        if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
            throw new IllegalArgumentException("defaultTimeout=" + defaultTimeout + " must be positive");
        }
        this.defaultTimeout = defaultTimeout;
    }

    /**
     * Sends one request: registers it with the reader of the reply queue (opened now if need be, at the end of
     * the queue), then calls {@code append} with the request headers to append it.
     *
     * @param requestQueue the queue the request goes to, for messages
     * @param replyQueue   the queue to read the reply from, or null for the default
     * @param timeout      how long to wait for the reply, or null for the default
     * @throws IllegalStateException when there is no reply queue, or the readers are stopped
     */
    public <R> CompletableFuture<R> request(String requestQueue, @Nullable String replyQueue, Class<R> replyType,
                                            @Nullable Duration timeout, Consumer<TextHeaders> append) {
        String replyTo = replyQueue != null ? replyQueue : defaultReplyQueue();
        return reader(replyTo).request("queue '" + requestQueue + "'", replyType,
                timeout != null ? timeout : defaultTimeout, append);
    }

    /**
     * The reader of the reply queue of this name, opened now, at the end of the queue, if there is none (or the
     * one there was stopped on an error).
     */
    public ReplyReader reader(String replyQueue) {
        Objects.requireNonNull(replyQueue, "replyQueue");
        ReplyReader reader = readers.get(replyQueue);
        if (reader != null && reader.isOpen() && running) {
            return reader;
        }
        return openReader(replyQueue);
    }

    /** Synchronized with {@link #stop()}, so that no reader opens while the others close, to be left running. */
    private synchronized ReplyReader openReader(String replyQueue) {
        if (!running) {
            throw new IllegalStateException("the reply readers are stopped (the application context is closing or "
                    + "closed): no request can wait for a reply from queue '" + replyQueue + "'");
        }
        ReplyReader existing = readers.get(replyQueue);
        if (existing != null && existing.isOpen()) {
            return existing;
        }
        if (existing != null) {
            existing.close(); // stopped on an error; a new one reads on from the end
        }
        ReplyReader reader = ReplyReader.open(queue(replyQueue), replyQueue);
        readers.put(replyQueue, reader);
        return reader;
    }

    private MappedQueue queue(String name) {
        MappedQueue queue = queues.get(name);
        if (queue == null) {
            throw new IllegalArgumentException("no queue named '" + name + "' to read replies from; the queues are "
                    + new TreeSet<>(queues.keySet()) + " (configure one with cq.queues." + name + ".*)");
        }
        return queue;
    }

    /** Whether replies may be read from a queue of this name. */
    public boolean hasQueue(String name) {
        return queues.containsKey(name);
    }

    /** The reply queue of requests that name none. */
    public String defaultReplyQueue() {
        if (defaultReplyQueue == null) {
            throw new IllegalStateException("no reply queue: name one in the request (sendAndReceive with a reply "
                    + "queue, @QueueWriter(replyQueue = ...)) or set cq.request-reply.reply-queue");
        }
        return defaultReplyQueue;
    }

    /** The reply queue of requests that name none, or null when they must name one. */
    public @Nullable String defaultReplyQueueOrNull() {
        return defaultReplyQueue;
    }

    /** The timeout of requests that give none. */
    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    /** Requests waiting for a reply, over every reply queue. */
    public int pendingCount() {
        return readers.values().stream().mapToInt(ReplyReader::pendingCount).sum();
    }

    @Override
    public synchronized void start() {
        running = true;
    }

    /** Closes every reader; their waiting requests fail with a {@code QueueClosedException}. */
    @Override
    public synchronized void stop() {
        running = false;
        readers.values().forEach(ReplyReader::close);
        readers.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** The default phase: stopped before the listener containers (see the class comment). */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    @Override
    public String toString() {
        return "ReplyReaders" + readers.values();
    }
}
