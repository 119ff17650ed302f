package io.cq.core.internal.layout;

import io.cq.core.RollCycle;


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

    /**
     * Checked by the builder and again once an existing queue's roll cycle is known, which may differ from the
     * requested one: a block must hold four index blocks of the roll cycle.
     */
    public static void requireBlockSizeFits(long blockSize, RollCycle rollCycle) {
        long indexBlock = CycleFileLayout.indexBlockLength(rollCycle.indexCount()) + 64L;
        long smallestBlock = Math.max(MIN_BLOCK_SIZE, (indexBlock * 4 + PAGE - 1) / PAGE * PAGE);
        if (blockSize < smallestBlock || blockSize % PAGE != 0 || blockSize > 1L << 40) {
            throw new IllegalArgumentException("blockSize=" + blockSize + " must be a multiple of " + PAGE
                    + " from " + smallestBlock + " (for rollCycle=" + rollCycle + ") to 2^40");
        }
    }

    /** Bytes each chunk maps beyond its block: a whole record, the word after it, and alignment slack. */
    public static long overlap(long blockSize) {
        return maxExcerptSize(blockSize) + 64;
    }
}
