package io.cq.core;

/**
 * An excerpt did not fit the largest size the queue's configuration allows. Nothing was written; the
 * appender and the queue remain usable.
 */
public final class ExcerptTooLargeException extends QueueException {
    /** The largest payload a record header can describe (docs/file-format.md, "Records"). */
    private static final long ABSOLUTE_LIMIT = (1L << 29) - 2;
    private final long limit;

    public ExcerptTooLargeException(long requested, long limit, long blockSize) {
        super(message(requested, limit, blockSize));
        this.limit = limit;
    }

    private static String message(long requested, long limit, long blockSize) {
        String prefix = "excerpt of " + requested + " bytes exceeds the limit of " + limit + " bytes";
        if (requested > ABSOLUTE_LIMIT) {
            return prefix + "; no excerpt can exceed " + ABSOLUTE_LIMIT + " bytes (512 MiB - 2): split the message";
        }
        return prefix + " (blockSize/4, with blockSize=" + blockSize
                + "); raise MappedQueue.builder(..).blockSize(..) to "
                + "at least " + requiredBlockSize(requested);
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
