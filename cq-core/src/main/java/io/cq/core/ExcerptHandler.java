package io.cq.core;

/**
 * Receives the excerpts that {@link ExcerptTailer#poll} reads, one call each. The cursor is valid only during the
 * call and reads the excerpt's payload from the mapped file in place: copy what must outlive it.
 */
@FunctionalInterface
public interface ExcerptHandler {
    /**
     * One excerpt. Returning moves the tailer past it; throwing leaves the tailer on it (it is read again next
     * time) and ends the poll with the exception.
     *
     * @param bytes the excerpt's payload, read-only
     * @param index the excerpt's index
     */
    void onExcerpt(ExcerptBytes bytes, long index);
}
