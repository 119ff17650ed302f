package io.cq.core.internal.layout;

import io.cq.core.RollCycle;

/**
 * How a cycle file is cut into blocks for mapping, and the size rules that follow (docs/file-format.md,
 * "Mapping"). Chunk {@code i} maps block {@code i} plus an overlap, so that a record that starts in block
 * {@code i} lies whole inside chunk {@code i}, together with the header word after it:
 *
 * <pre>
 *  file   |<---- block 0 ---->|<---- block 1 ---->|<---- block 2 ---->|
 *  chunk 0 |==================|=====|                  overlap = maxExcerpt + 64, to a 2 MiB (or page) end
 *  chunk 1                    |==================|=====|
 *  chunk 2                                       |==================|=====|
 * </pre>
 *
 * A block is a multiple of the page size, at least 64 KiB and at most 2^40 bytes; the largest excerpt is a
 * quarter of a block (and below {@link ExcerptHeaderDescriptor#MAX_LENGTH}).
 */
public final class BlockDescriptor {
    public static final long MIN_BLOCK_SIZE = 64 * 1024;
    public static final long MAX_BLOCK_SIZE = 1L << 40;
    public static final long PAGE = 4096;
    /**
     * How far ahead of the write position a file's blocks are reserved, by default (docs/operations.md): small
     * enough that a queue holding one excerpt takes under 1 MiB of disk, table store included; large enough that
     * an appender reserves once per thousands of excerpts.
     */
    public static final long DEFAULT_RESERVE_STEP = io.cq.core.MappedQueueBuilder.DEFAULT_RESERVE_STEP;
    public static final long MIN_RESERVE_STEP = 64 * 1024;
    /** The page cache's largest folio on x86-64 and aarch64 with 4 KiB pages (mapped by one PMD entry). */
    public static final long LARGE_FOLIO = 2L << 20;
    /** Slack each chunk maps beyond the largest record: the header word after it and alignment. */
    private static final long OVERLAP_SLACK = 64;

    private BlockDescriptor() {
    }

    /** The largest excerpt payload: a quarter of a block, so that a chunk's overlap can hold any record whole. */
    public static long maxExcerptSize(long blockSize) {
        return Math.min(blockSize / 4, ExcerptHeaderDescriptor.MAX_LENGTH);
    }

    /**
     * Bytes each chunk maps beyond its block: a whole record, the word after it and alignment slack, rounded up so
     * that the mapping ends on a {@link #LARGE_FOLIO} boundary where the block size is a multiple of it (else on a
     * page boundary). A writer's mapping sets the file's length, and ext4 zeroes the partial block at the old end of
     * a file that grows, through a 4 KiB page-cache page: left at a 2 MiB boundary, that page kept the page cache
     * from reading the next 2 MiB in as one large folio and restarted its folio sizes from 4 KiB, so that an appender
     * met a page fault every few pages instead of one per 2 MiB (docs/file-format.md, "Mapping").
     */
    public static long overlap(long blockSize) {
        long alignment = blockSize % LARGE_FOLIO == 0 ? LARGE_FOLIO : PAGE;
        long mappingEnd = blockSize + maxExcerptSize(blockSize) + OVERLAP_SLACK;
        return (mappingEnd + alignment - 1) / alignment * alignment - blockSize;
    }

    /**
     * Where a reservation that must cover {@code end} stops: on a step boundary at least half a step beyond
     * {@code end}, so that an appender reserves once a step, whatever its excerpts' sizes.
     */
    public static long reservationEnd(long end, long step) {
        return (end + step / 2 + step - 1) / step * step;
    }

    /**
     * Where the first reservation a process makes in a file stops: half a step beyond {@code end}, in whole pages,
     * not on a step boundary, which could lie a step and a half beyond. In a new file, {@code end} is past the
     * header and the first index block (256 KiB for {@code XLARGE_DAILY}), so a queue holding one excerpt would
     * otherwise reserve up to the second step.
     */
    public static long firstReservationEnd(long end, long step) {
        return (end + step / 2 + PAGE - 1) & -PAGE;
    }

    /** Checked by the builder: a reservation step is whole pages, from 64 KiB to a block. */
    public static void requireReserveStepFits(long step, long blockSize) {
        if (step < MIN_RESERVE_STEP || step % PAGE != 0 || step > blockSize) {
            throw new IllegalArgumentException("reserveStep=" + step + " must be a multiple of " + PAGE + " from "
                    + MIN_RESERVE_STEP + " to the block size (" + blockSize + ")");
        }
    }

    /** Whether a block size read from a file is one cq could have written. */
    public static boolean isValidBlockSize(long blockSize) {
        return blockSize >= MIN_BLOCK_SIZE && blockSize % PAGE == 0 && blockSize <= MAX_BLOCK_SIZE;
    }

    /** The smallest block of a roll cycle: whole pages that hold four of its index blocks, and at least 64 KiB. */
    public static long smallestBlockSize(RollCycle rollCycle) {
        long indexBlock = IndexDescriptor.indexBlockLength(rollCycle.indexCount()) + OVERLAP_SLACK;
        return Math.max(MIN_BLOCK_SIZE, (indexBlock * 4 + PAGE - 1) / PAGE * PAGE);
    }

    /**
     * Checked by the builder and again once an existing queue's roll cycle is known, which may differ from the
     * requested one: a block must hold four index blocks of the roll cycle.
     */
    public static void requireBlockSizeFits(long blockSize, RollCycle rollCycle) {
        long smallestBlock = smallestBlockSize(rollCycle);
        if (blockSize < smallestBlock || blockSize % PAGE != 0 || blockSize > MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("blockSize=" + blockSize + " must be a multiple of " + PAGE
                    + " from " + smallestBlock + " (for rollCycle=" + rollCycle + ") to 2^40");
        }
    }
}
