package io.cq.core;

/**
 * One excerpt being written. While it is open, its appender holds the queue's write lock: write, then close
 * promptly. {@link #close()} publishes the excerpt to every tailer (or, after {@link #rollbackOnClose()},
 * discards it). A context written nothing to publishes an empty excerpt.
 *
 * <p>Reused by its appender for the next excerpt; not thread-safe.
 */
public interface WriteContext extends AutoCloseable {
    /** The cursor over the excerpt's memory. */
    ExcerptBytes bytes();

    /** The index the excerpt gets when it is published. */
    long index();

    /** Discard the excerpt on close instead of publishing it; its index is then given to the next excerpt. */
    void rollbackOnClose();

    /** Whether the context is still open. */
    boolean isOpen();

    /** Publishes (or discards) the excerpt and releases the write lock. Closing twice does nothing. */
    @Override
    void close();
}
