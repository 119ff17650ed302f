package io.cq.core;

import io.cq.core.internal.message.ObjectMessages;
import io.cq.core.message.MethodWriterBuilder;

import java.util.function.Consumer;

/**
 * Adds excerpts to the end of a queue. Many appenders (threads or processes) may append at once: each excerpt
 * is written whole under the queue's write lock, so excerpts never interleave and every tailer sees them in
 * one total order, each appender's own in the order it wrote them.
 *
 * <p>An appender belongs to one thread at a time ({@link MappedQueue#acquireAppender()} gives each thread its
 * own). Appending allocates nothing and makes no system call, except when a new block of the file is mapped
 * or a new cycle file is created.
 */
public interface ExcerptAppender extends AutoCloseable {
    /**
     * Opens an excerpt for writing and takes the write lock, waiting while another appender holds it. Close
     * the returned context (try-with-resources) to publish the excerpt.
     *
     * @throws IllegalStateException if this appender already has an open context
     */
    WriteContext writingDocument();

    /** Appends the text's UTF-8 bytes as one excerpt (read back whole by {@link ExcerptTailer#readText()}). */
    long writeText(CharSequence text);

    /** Appends the bytes as one excerpt and returns its index. */
    long writeBytes(byte[] bytes);

    /**
     * Appends one excerpt written by {@code writer} through the cursor, and returns its index. If the writer
     * throws, nothing is appended and the exception propagates. No Jackson involved; allocates nothing.
     */
    default long writeDocument(Consumer<ExcerptBytes> writer) {
        try (WriteContext context = writingDocument()) {
            try {
                writer.accept(context.bytes());
            } catch (RuntimeException | Error e) {
                context.rollbackOnClose();
                throw e;
            }
        }
        return lastIndexAppended();
    }

    /**
     * An implementation of the interface whose every call appends one message excerpt naming the method and
     * carrying its arguments (docs/messages.md). Confined to this appender's thread, like the appender.
     *
     * @throws IllegalArgumentException when the type is not a suitable interface (see {@link MethodWriterBuilder})
     */
    default <T> T methodWriter(Class<T> type) {
        return methodWriterBuilder(type).build();
    }

    /** Configures a method writer on this appender (source id, history). */
    default <T> MethodWriterBuilder<T> methodWriterBuilder(Class<T> type) {
        return new MethodWriterBuilder<>(this, type);
    }

    /**
     * Appends the object (a record, POJO, collection...) as one self-describing message excerpt, encoded as CBOR
     * through Jackson, and returns its index; read it with {@link ExcerptTailer#readObject(Class)}.
     */
    default long writeObject(Object value) {
        return ObjectMessages.write(this, value);
    }

    /** Index of the last excerpt this appender published, or -1 when it has published none. */
    long lastIndexAppended();

    /** The queue this appender writes to. */
    MappedQueue queue();

    /** Releases the appender's files; an open context is rolled back. */
    @Override
    void close();
}
