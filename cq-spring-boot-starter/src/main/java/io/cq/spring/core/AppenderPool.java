package io.cq.spring.core;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few appenders of one queue, lent for one append at a time to whichever thread asks: what lets {@link QueueTemplate}
 * and {@link io.cq.spring.annotation.QueueWriter} beans be shared by any number of threads, virtual ones included,
 * without an appender per thread. A borrower that finds none idle gets a new one; one given back when enough are idle
 * is closed. Lending and giving back are a compare-and-set on a small array: nothing is allocated per append, and
 * nothing waits but for the queue's write lock, which every append takes anyway.
 *
 * <p>Each appender keeps the method writers made on it ({@link Lease#methodWriter(Class)}), so a writer's
 * generated class is instantiated once per appender, not per call, and with the lease's headers, which carry the
 * trace context of a send ({@link SendObservations}). Thread-safe.
 */
final class AppenderPool {
    private static final int MAX_IDLE = Math.clamp(2L * Runtime.getRuntime().availableProcessors(), 4, 64);

    private final MappedQueue queue;
    private final AtomicReferenceArray<Lease> idle = new AtomicReferenceArray<>(MAX_IDLE);

    AppenderPool(MappedQueue queue) {
        this.queue = queue;
    }

    /** An appender for the caller's next append; give it back with {@link Lease#close()}. */
    Lease borrow() {
        for (int i = 0; i < MAX_IDLE; i++) {
            Lease lease = idle.get(i);
            if (lease != null && idle.compareAndSet(i, lease, null)) {
                return lease;
            }
        }
        return new Lease(queue.createAppender());
    }

    private void giveBack(Lease lease) {
        // Whatever a send left behind (an observation that failed to start after writing its trace context) must not
        // ride on the next borrower's messages.
        lease.headers.clear();
        if (!queue.isClosed()) {
            for (int i = 0; i < MAX_IDLE; i++) {
                if (idle.get(i) == null && idle.compareAndSet(i, null, lease)) {
                    return;
                }
            }
        }
        lease.appender.close();
    }

    /** Appenders lying idle now (for tests and monitoring). */
    int idleCount() {
        int count = 0;
        for (int i = 0; i < MAX_IDLE; i++) {
            count += idle.get(i) == null ? 0 : 1;
        }
        return count;
    }

    /** One appender lent to one thread until closed. */
    final class Lease implements AutoCloseable {
        private final ExcerptAppender appender;
        /**
         * Written with every message of this lease while it holds pairs: filled by a send's observation (the trace
         * context) or by a request (its correlation id and reply queue), and cleared after that send.
         */
        private final TextHeaders headers = new TextHeaders();
        private final Map<Class<?>, Object> writers = new HashMap<>();

        private Lease(ExcerptAppender appender) {
            this.appender = appender;
        }

        ExcerptAppender appender() {
            return appender;
        }

        TextHeaders headers() {
            return headers;
        }

        /** The method writer of {@code type} on this lease's appender, made the first time it is asked for. */
        Object methodWriter(Class<?> type) {
            Object writer = writers.get(type);
            if (writer == null) {
                writer = Messages.methodWriterBuilder(appender, type).headers(headers).build();
                writers.put(type, writer);
            }
            return writer;
        }

        @Override
        public void close() {
            giveBack(this);
        }
    }
}
