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
        this(message(requested, limit, blockSize), limit);
    }

    private ExcerptTooLargeException(String message, long limit) {
        super(message);
        this.limit = limit;
    }

    /**
     * An excerpt larger than an async queue's buffer takes (a quarter of it, less a record header; see
     * {@link MappedQueueBuilder#asyncBufferSize(long)}).
     */
    public static ExcerptTooLargeException ofAsyncBuffer(long requested, long limit, long bufferSize) {
        return new ExcerptTooLargeException("excerpt of " + requested + " bytes exceeds the limit of " + limit
                + " bytes of this async queue (a quarter of its " + bufferSize + "-byte buffer, less a 24-byte record "
                + "header); create the queue with a larger MappedQueue.builder(..).asyncBufferSize(..), at least "
                + requiredBlockSize(requested + 24), limit);
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
