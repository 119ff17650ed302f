package io.cq.core;

/**
 * One excerpt being written. While it is open, its appender holds the queue's write lock (unless the queue is
 * double-buffered and the context is buffering, see {@link MappedQueueBuilder#doubleBuffer(boolean)}): write, then
 * close promptly. {@link #close()} publishes the excerpt to every tailer (or, after {@link #rollbackOnClose()},
 * discards it). A context written nothing to publishes an empty excerpt.
 *
 * <p>Reused by its appender for the next excerpt; not thread-safe.
 */
public interface WriteContext extends AutoCloseable {
    /** The cursor over the excerpt's memory. */
    ExcerptBytes bytes();

    /**
     * The index the excerpt gets when it is published. A double-buffered context that is still buffering learns it
     * only under the write lock: it takes the lock here, waiting if need be, and writes in place from then on.
     */
    long index();

    /** Discard the excerpt on close instead of publishing it; its index is then given to the next excerpt. */
    void rollbackOnClose();

    /** Whether the context is still open. */
    boolean isOpen();

    /** Publishes (or discards) the excerpt and releases the write lock. Closing twice does nothing. */
    @Override
    void close();
}
