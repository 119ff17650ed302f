package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.internal.system.FilePermissions;

import java.util.function.LongSupplier;

/**
 * An async queue's buffer and drainer (docs/file-format.md, "Async buffer") as the plain engine reaches them: the
 * async engine, in {@code internal.async} above this package, implements it, so that the plain engine names none of
 * its classes. One per open async queue.
 */
public interface AsyncFront {
    /** An appender that adds to the buffer. */
    ExcerptAppender newAppender();

    /** A tailer that reads the buffer beyond the queue's end, around one of the queue's own. */
    ExcerptTailer newTailer(StoreTailer tailer);

    /** Bytes added to the buffer and not drained yet. */
    long buffered();

    /** After the queue's appenders closed and before its files do: a last drainer drains what is left. */
    void release();

    /** Opens the front of a queue whose table store records an async buffer. */
    interface Opener {
        /**
         * @param lastIndex the queue's last index, where a new buffer starts
         * @param drain     whether this process may drain the buffer into the queue's files
         * @return the front, or null when a reader finds no buffer (nobody writes the queue now)
         */
        AsyncFront open(QueueContext queue, FilePermissions permissions, LongSupplier lastIndex, boolean writable,
                        boolean drain);
    }
}
