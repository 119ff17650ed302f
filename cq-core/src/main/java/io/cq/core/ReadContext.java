package io.cq.core;

/**
 * One excerpt being read, or the absence of one ({@link #isPresent()} false). {@link #close()} moves the
 * tailer past the excerpt and, for a named tailer, persists the new position; after
 * {@link #rollbackOnClose()} the tailer stays on the excerpt and reads it again next time.
 *
 * <p>Closing commits even when the code inside {@code try (ReadContext dc = tailer.readingDocument())} threw:
 * Java does not tell {@code close()} about the exception. To read an excerpt again after a failure, call
 * {@link #rollbackOnClose()} in a {@code catch} block.
 *
 * <p>Moving the tailer while the context is open ({@code toStart}, {@code toEnd}, a {@code moveToIndex} that finds
 * its excerpt) cancels the commit: the tailer stays where it was moved, as in {@link ExcerptTailer#poll}.
 *
 * <p>Reused by its tailer for the next excerpt; not thread-safe.
 */
public interface ReadContext extends AutoCloseable {
    /** Whether an excerpt was there to read. */
    boolean isPresent();

    /** The cursor over the excerpt's memory (read-only); empty when nothing is present. */
    ExcerptBytes bytes();

    /** Index of the excerpt being read; -1 when nothing is present. */
    long index();

    /** Keep the tailer on this excerpt: the next read returns it again. */
    void rollbackOnClose();

    /** Moves the tailer past the excerpt unless rolled back. Closing twice does nothing. */
    @Override
    void close();
}
