package io.cq.core.internal.layout;


/** Size rules derived from the block size (docs/file-format.md, "Mapping"). */
public final class Limits {
    public static final long MIN_BLOCK_SIZE = 64 * 1024;
    public static final long PAGE = 4096;

    private Limits() {
    }

    /** The largest excerpt payload: a quarter of a block, so that a chunk's overlap can hold any record whole. */
    public static long maxExcerptSize(long blockSize) {
        return Math.min(blockSize / 4, ExcerptHeader.MAX_LENGTH);
    }

    /** Bytes each chunk maps beyond its block: a whole record, the word after it, and alignment slack. */
    public static long overlap(long blockSize) {
        return maxExcerptSize(blockSize) + 64;
    }
}
