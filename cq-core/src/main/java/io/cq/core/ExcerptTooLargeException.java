package io.cq.core;

/**
 * An excerpt did not fit the largest size the queue's configuration allows. Nothing was written; the
 * appender and the queue remain usable.
 */
public final class ExcerptTooLargeException extends QueueException {
    private final long limit;

    public ExcerptTooLargeException(long requested, long limit, long blockSize) {
        super("excerpt of " + requested + " bytes exceeds the limit of " + limit + " bytes (blockSize/4, with blockSize="
                + blockSize + "); raise MappedQueue.builder(..).blockSize(..) to at least " + requiredBlockSize(requested));
        this.limit = limit;
    }

    /** The largest excerpt the queue accepts, in bytes. */
    public long limit() {
        return limit;
    }

    static long requiredBlockSize(long requested) {
        long needed = Math.max(requested * 4, 4096);
        return Long.highestOneBit(needed - 1) << 1;
    }
}
