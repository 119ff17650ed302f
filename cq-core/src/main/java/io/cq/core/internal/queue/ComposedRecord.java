package io.cq.core.internal.queue;

import io.cq.core.QueueException;
import io.cq.core.internal.system.Failures;

/**
 * What the appenders that compose an excerpt before they take the write lock share (double-buffered and codec
 * appenders): opening the record it goes to, while the queue's close may close the appender from another thread.
 */
final class ComposedRecord {
    private ComposedRecord() {
    }

    /** A {@link io.cq.core.QueueClosedException}: the excerpt being composed was dropped. */
    static QueueException closedWhileComposing(QueueContext queue) {
        return Failures.closed("appender of queue " + queue.describe() + " was closed while its excerpt was being "
                + "composed in its buffer; nothing was published");
    }

    /**
     * Takes the write lock and opens the record the composed excerpt is copied into
     * ({@link RecordPlacement#copyComposed}). When the appender was closed before, or is closed while this
     * thread waits for the lock, nothing is written, the lock is not kept, and {@link #closedWhileComposing} is thrown;
     * the caller unbinds its cursor on any failure.
     */
    static void open(StoreAppender appender, QueueContext queue) {
        if (appender.isClosed()) {
            throw closedWhileComposing(queue);
        }
        try {
            appender.openInPlace(false);
        } catch (RuntimeException | Error e) {
            if (appender.isClosed()) {
                // Closed while this thread waited for the lock, which left it no file to write in.
                QueueException closedMeanwhile = closedWhileComposing(queue);
                closedMeanwhile.addSuppressed(e);
                throw closedMeanwhile;
            }
            throw e;
        }
        if (appender.isClosed()) {
            // Closed by another thread (the queue's close) while this one waited for the lock: nothing is written.
            appender.abandonOpenRecord();
            throw closedWhileComposing(queue);
        }
    }
}
