package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import io.cq.core.idle.IdleStrategy;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads one reply queue and completes the futures of the requests sent through it ({@link RequestReply}):
 * {@link #request} registers a request under a new correlation id, lets the caller append it with the request
 * headers, and returns a future that completes with the reply decoded as the reply type, exceptionally with a
 * {@link ReplyErrorException} when the responder sent an error reply, or with a {@link ReplyTimeoutException}
 * when no reply came in time.
 *
 * <p>An unnamed tailer, placed at the end of the queue when the reader opens (so before any request it sends),
 * follows the queue on a daemon thread ({@code cq-replies-<replyTo>}) and skips replies to other requests: any
 * number of readers, in this process and others, may share a reply queue. While requests are waiting the thread
 * polls with {@link IdleStrategy#backoff()}; while none is, it parks 10 ms at a time, and a new request wakes it.
 * A request leaves the reader's memory when it completes in any way (reply, error, timeout, cancellation of its
 * future), so abandoned requests do not accumulate.
 *
 * <p>Thread-safe: any thread may send requests. Stages added to a returned future without an executor run on
 * the reader's thread when the reply arrives, and hold up the replies behind it: keep them short, or use the
 * {@code *Async} variants. {@link #close()} fails the requests still waiting with a {@link QueueClosedException}.
 */
public final class ReplyReader implements AutoCloseable {
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    private final MappedQueue queue;
    private final String replyTo;
    private final Map<String, Pending<?>> pending = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timeouts;
    private final Thread thread;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean open = true;
    private volatile Throwable failure;

    private ReplyReader(MappedQueue queue, String replyTo) {
        this.queue = queue;
        this.replyTo = replyTo;
        // Placed at the end here, on the opener's thread, so that it is before every request sent through this reader.
        ExcerptTailer tailer = queue.createTailer();
        tailer.toEnd();
        this.timeouts = new ScheduledThreadPoolExecutor(1, task -> Thread.ofPlatform().daemon(true)
                .name("cq-reply-timeouts-" + replyTo).unstarted(task));
        // A reply cancels its timer: without this, each answered request would stay in the timer queue until its
        // timeout, which at a high request rate holds far more than the waiting requests.
        timeouts.setRemoveOnCancelPolicy(true);
        this.thread = Thread.ofPlatform().daemon(true).name("cq-replies-" + replyTo).unstarted(() -> run(tailer));
        thread.start();
    }

    /**
     * Opens a reader of {@code queue}, placed at its end, and starts its thread.
     *
     * @param replyTo the name responders know the queue by, put in each request's {@link RequestReply#REPLY_TO}
     */
    public static ReplyReader open(MappedQueue queue, String replyTo) {
        Objects.requireNonNull(queue, "queue");
        if (Objects.requireNonNull(replyTo, "replyTo").isEmpty()) {
            throw new IllegalArgumentException("replyTo must name the reply queue");
        }
        return new ReplyReader(queue, replyTo);
    }

    /**
     * Sends one request and returns the future of its reply. {@code append} is called once, on the calling thread,
     * with the request's headers ({@link RequestReply#CORRELATION_ID}, {@link RequestReply#REPLY_TO}): it appends
     * the request with them (a method writer built with {@code headers(...)}, or
     * {@link Messages#writeObject(io.cq.core.ExcerptAppender, Object, TextHeaders)}). The request is registered
     * before {@code append} runs, so even the fastest reply is not missed; the timeout counts from when it returns.
     *
     * @param destination where the request goes, for messages (e.g. {@code queue 'quotes'})
     * @param replyType   the class the reply decodes as, with the allow-list of
     *                    {@link Messages#readObject(io.cq.core.ExcerptTailer, Class)}
     * @throws QueueClosedException when the reader is closed; what {@code append} throws, with nothing registered
     */
    public <R> CompletableFuture<R> request(String destination, Class<R> replyType, Duration timeout,
                                            Consumer<TextHeaders> append) {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(replyType, "replyType");
        Objects.requireNonNull(append, "append");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
        }
        requireOpen();
        Pending<R> entry = new Pending<>(RequestReply.newCorrelationId(), destination, replyType, timeout);
        pending.put(entry.correlationId, entry);
        entry.future.whenComplete((value, error) -> forget(entry));
        if (!open) {
            // close() may have failed the waiting requests before this one was registered
            pending.remove(entry.correlationId, entry);
            requireOpen();
        }
        try {
            append.accept(RequestReply.requestHeaders(entry.correlationId, replyTo));
        } catch (RuntimeException | Error e) {
            pending.remove(entry.correlationId, entry);
            throw e;
        }
        entry.startTimer();
        LockSupport.unpark(thread);
        return entry.future;
    }

    private void requireOpen() {
        if (!open) {
            Throwable cause = failure;
            QueueClosedException closed = new QueueClosedException("the reply reader of queue '" + replyTo
                    + "' is closed" + (cause == null ? "" : ": it stopped on " + cause));
            if (cause != null) {
                closed.initCause(cause);
            }
            throw closed;
        }
    }

    private void forget(Pending<?> entry) {
        pending.remove(entry.correlationId, entry);
        ScheduledFuture<?> timer = entry.timer;
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private void run(ExcerptTailer tailer) {
        IdleStrategy idle = IdleStrategy.backoff();
        TextHeaders headers = new TextHeaders();
        try (tailer) {
            while (open) {
                int read = 0;
                while (open && readOne(tailer, headers)) {
                    read++;
                }
                if (read > 0) {
                    idle.reset();
                } else if (pending.isEmpty()) {
                    // Nobody waits: no hurry. A new request unparks the thread after appending.
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                } else {
                    idle.idle();
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            open = false;
            failPending(entry -> new IllegalStateException("the reply reader of queue '" + replyTo + "' stopped on "
                    + e + " before request " + entry.correlationId + " to " + entry.destination + " got a reply", e));
        }
    }

    /** @return false when the queue had nothing new */
    private boolean readOne(ExcerptTailer tailer, TextHeaders headers) {
        try (ReadContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return false;
            }
            if (!pending.isEmpty()) {
                deliver(context, headers);
            }
            return true;
        }
    }

    private void deliver(ReadContext context, TextHeaders headers) {
        try {
            if (!Messages.readHeaders(context, headers)) {
                return;
            }
        } catch (MessageDecodingException malformed) {
            return; // its correlation id cannot be read, so it cannot be paired with a request
        }
        String correlationId = headers.get(RequestReply.CORRELATION_ID);
        Pending<?> entry = correlationId == null ? null : pending.get(correlationId);
        if (entry != null) {
            entry.complete(context, headers);
        }
    }

    private void failPending(Function<Pending<?>, Throwable> reason) {
        for (Pending<?> entry : pending.values()) {
            entry.fail(reason.apply(entry));
        }
    }

    /**
     * Stops the thread, waiting up to 5 s for it, and fails the requests still waiting with a
     * {@link QueueClosedException}; later requests throw one. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        open = false;
        LockSupport.unpark(thread);
        if (thread != Thread.currentThread()) {
            try {
                thread.join(CLOSE_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        timeouts.shutdownNow();
        failPending(entry -> new QueueClosedException("the reply reader of queue '" + replyTo
                + "' was closed before request " + entry.correlationId + " to " + entry.destination + " got a reply"));
    }

    /** Whether requests are accepted: false once closed, or once the thread stopped on an error. */
    public boolean isOpen() {
        return open;
    }

    /** Requests waiting for their reply. */
    public int pendingCount() {
        return pending.size();
    }

    /** The name put in each request's {@link RequestReply#REPLY_TO}. */
    public String replyTo() {
        return replyTo;
    }

    /** The queue it reads. */
    public MappedQueue queue() {
        return queue;
    }

    @Override
    public String toString() {
        return "ReplyReader[" + replyTo + " at " + queue.path() + ", " + pending.size() + " waiting"
                + (open ? "" : ", closed") + "]";
    }

    /** One request waiting for its reply. */
    private final class Pending<R> {
        final String correlationId;
        final String destination;
        final Class<R> type;
        final Duration timeout;
        final CompletableFuture<R> future = new CompletableFuture<>();
        volatile ScheduledFuture<?> timer;

        Pending(String correlationId, String destination, Class<R> type, Duration timeout) {
            this.correlationId = correlationId;
            this.destination = destination;
            this.type = type;
            this.timeout = timeout;
        }

        void startTimer() {
            try {
                timer = timeouts.schedule(this::expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                fail(new QueueClosedException("the reply reader of queue '" + replyTo
                        + "' was closed while request " + correlationId + " to " + destination + " was sent"));
                return;
            }
            if (future.isDone()) {
                timer.cancel(false); // the reply came before the timer was set: forget() saw no timer to cancel
            }
        }

        private void expire() {
            fail(new ReplyTimeoutException(correlationId, timeout, "no reply within "
                    + timeout.toMillis() + " ms to request " + correlationId + " sent to " + destination
                    + " (replies are read from queue '" + replyTo + "')"));
        }

        /**
         * Forgets the request before its future completes: stages run as it completes (the caller's among them),
         * and must find it gone, so that no caller ever sees a completed request still counted as waiting.
         */
        void fail(Throwable error) {
            pending.remove(correlationId, this);
            future.completeExceptionally(error);
        }

        void complete(ReadContext context, TextHeaders headers) {
            pending.remove(correlationId, this);
            if (RequestReply.isError(headers)) {
                future.completeExceptionally(new ReplyErrorException(correlationId,
                        Objects.requireNonNullElse(headers.get(RequestReply.ERROR_SOURCE), "the responder"),
                        headers.get(RequestReply.ERROR),
                        Objects.requireNonNullElse(headers.get(RequestReply.ERROR_MESSAGE), "")));
                return;
            }
            R value;
            try {
                value = Messages.readObject(context, type);
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
                return;
            }
            future.complete(value);
        }
    }
}
