package io.cq.core;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads a queue's excerpts in order, from any position, following the end as new excerpts arrive. Every
 * tailer sees every excerpt. A named tailer ({@link MappedQueue#createTailer(String)}) persists its position
 * whenever a read context closes without rollback, and resumes there after a restart.
 *
 * <p>A tailer belongs to one thread at a time. Reading allocates nothing and makes no system call, except when
 * moving to another block or cycle file.
 *
 * <p>Typed messages (method readers, objects) are read through {@link io.cq.core.message.Messages}.
 */
public interface ExcerptTailer extends AutoCloseable {
    /**
     * The next excerpt, or a context whose {@link ReadContext#isPresent()} is false when there is none yet.
     * Close the context (try-with-resources) to move past the excerpt.
     */
    ReadContext readingDocument();

    /** The next excerpt's bytes decoded as UTF-8, or null when there is none. */
    default String readText() {
        byte[] bytes = readBytes();
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** A copy of the next excerpt's bytes, or null when there is none. */
    default byte[] readBytes() {
        try (ReadContext context = readingDocument()) {
            if (!context.isPresent()) {
                return null;
            }
            byte[] bytes = new byte[(int) context.bytes().length()];
            context.bytes().readBytes(bytes);
            return bytes;
        }
    }

    /**
     * Hands the next excerpt's cursor to {@code reader}, if there is one. If the reader throws, the read is
     * rolled back (the excerpt is read again next time) and the exception propagates. No Jackson involved.
     *
     * @return whether an excerpt was there to read
     */
    default boolean readDocument(Consumer<ExcerptBytes> reader) {
        try (ReadContext context = readingDocument()) {
            if (!context.isPresent()) {
                return false;
            }
            try {
                reader.accept(context.bytes());
            } catch (Throwable e) {
                // Any throwable: a checked exception thrown unchecked (Kotlin, @SneakyThrows) must not publish a
                // half-written excerpt, or commit a read nobody finished. Rethrown precisely: nothing checked.
                context.rollbackOnClose();
                throw e;
            }
            return true;
        }
    }

    /**
     * Reads up to {@code limit} excerpts that are there now, handing each to {@code handler} in order: the way to
     * drain a busy queue. Same outcome as calling {@link #readDocument} up to {@code limit} times, and a named
     * tailer persists its position after each excerpt as it does there; but the tailer keeps its place in the
     * file between excerpts instead of starting each read afresh, so a burst costs about half as much per excerpt.
     * Reading backward, excerpts come one read at a time as through {@link #readingDocument()}.
     *
     * @param handler receives each excerpt; if it throws, the tailer stays on that excerpt and the exception
     *                propagates (the excerpts before it count as read)
     * @param limit   the most excerpts to read in this call, at least 1
     * @return how many excerpts were read: 0 when there is none yet
     */
    default int poll(ExcerptHandler handler, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        int read = 0;
        while (read < limit) {
            try (ReadContext context = readingDocument()) {
                if (!context.isPresent()) {
                    break;
                }
                try {
                    handler.onExcerpt(context.bytes(), context.index());
                } catch (RuntimeException | Error e) {
                    context.rollbackOnClose();
                    throw e;
                }
            }
            read++;
        }
        return read;
    }

    /** Index of the next excerpt this tailer would read (it need not exist yet). */
    long index();

    /** Moves before the first excerpt of the queue (or, going backward, onto it). */
    ExcerptTailer toStart();

    /** Moves after the last excerpt, so that only new excerpts are read (going backward: onto the last one). */
    ExcerptTailer toEnd();

    /**
     * Moves onto the excerpt with this index, so it is the next one read.
     *
     * @return false, leaving the position unchanged, when the queue holds no excerpt with that index
     */
    boolean moveToIndex(long index);

    /**
     * Moves to a {@link StartPosition}. A resuming position leaves a named tailer that committed a position before
     * where it is, and applies its fallback otherwise (and always to an unnamed tailer).
     *
     * @return false, leaving the tailer at the end of the queue, when the queue has no excerpt at the requested
     *         index, or no cycle file at or after the requested time
     */
    boolean moveTo(StartPosition position);

    /** Changes the direction of reading; the position stays on the next excerpt to read. */
    ExcerptTailer direction(TailerDirection direction);

    TailerDirection direction();

    /** The name of a named tailer, or null. */
    String name();

    /** Number of excerpts after this tailer's position up to the end of the queue (for forward reading). */
    long lag();

    /** The queue this tailer reads. */
    MappedQueue queue();

    /** Releases the tailer's files and, for a named tailer, the name. */
    @Override
    void close();
}
