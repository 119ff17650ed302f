package io.cq.core;

import java.util.function.Consumer;

/**
 * Adds excerpts to the end of a queue. Many appenders (threads or processes) may append at once: each excerpt
 * is written whole under the queue's write lock, so excerpts never interleave and every tailer sees them in
 * one total order, each appender's own in the order it wrote them.
 *
 * <p>An appender belongs to one thread at a time: {@link MappedQueue#createAppender()} gives one the caller owns
 * and closes. Appending allocates nothing and makes no system call, except when a new block of the file is mapped
 * or a new cycle file is created.
 *
 * <p>Typed messages (method writers, objects) are written through {@link io.cq.core.message.Messages}, which
 * builds them on top of this interface.
 */
public interface ExcerptAppender extends AutoCloseable {
    /**
     * Opens an excerpt for writing and takes the write lock, waiting while another appender holds it. Close
     * the returned context (try-with-resources) to publish the excerpt. On a queue with
     * {@link MappedQueueBuilder#doubleBuffer(boolean) double-buffered writes}, an appender that finds the lock taken
     * returns at once with a context over a buffer of its own, and takes the lock when the context closes.
     *
     * @throws IllegalStateException if this appender already has an open context
     */
    WriteContext writingDocument();

    /** Whether this appender was closed: by its owner, by its queue's close, or for a thread that ended. */
    boolean isClosed();

    /** Appends the text's UTF-8 bytes as one excerpt (read back whole by {@link ExcerptTailer#readText()}). */
    long writeText(CharSequence text);

    /** Appends the bytes as one excerpt and returns its index; if the copy fails, nothing is appended. */
    default long writeBytes(byte[] bytes) {
        try (WriteContext context = writingDocument()) {
            try {
                context.bytes().writeBytes(bytes);
            } catch (Throwable e) {
                // Any throwable: a checked exception thrown unchecked (Kotlin, @SneakyThrows) must not publish a
                // half-written excerpt, or commit a read nobody finished. Rethrown precisely: nothing checked.
                context.rollbackOnClose();
                throw e;
            }
        }
        return lastIndexAppended();
    }

    /**
     * Appends one excerpt written by {@code writer} through the cursor, and returns its index. If the writer
     * throws, nothing is appended and the exception propagates. No Jackson involved; allocates nothing.
     */
    default long writeDocument(Consumer<ExcerptBytes> writer) {
        try (WriteContext context = writingDocument()) {
            try {
                writer.accept(context.bytes());
            } catch (Throwable e) {
                // Any throwable: a checked exception thrown unchecked (Kotlin, @SneakyThrows) must not publish a
                // half-written excerpt, or commit a read nobody finished. Rethrown precisely: nothing checked.
                context.rollbackOnClose();
                throw e;
            }
        }
        return lastIndexAppended();
    }

    /** Index of the last excerpt this appender published, or -1 when it has published none. */
    long lastIndexAppended();

    /** The queue this appender writes to. */
    MappedQueue queue();

    /** Releases the appender's files; an open context is rolled back. */
    @Override
    void close();
}
