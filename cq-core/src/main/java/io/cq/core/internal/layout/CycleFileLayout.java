package io.cq.core.internal.layout;

/**
 * Layout of a cycle file (docs/file-format.md, "Cycle files"). All values little-endian.
 *
 * <pre>
 *  0 +-------------------------------+  8 magic "cq.cycle"
 *    | magic                         |
 *  8 | formatVersion | headerLength  |  4 + 4
 * 16 | cycle                         |  8
 * 24 | sequenceBits  | indexCount    |  4 + 4
 * 32 | indexSpacing  | (reserved)    |  4 + 4
 * 40 | blockSize                     |  8
 * 48 | createdEpochMillis            |  8
 * 56 | dataStart                     |  8
 * 64 | writePosition hint            |  8   written under the write lock, read by anyone
 * 72 | sequence hint                 |  8   excerpts written, at most the true count
 *    | (reserved up to 256)          |
 *256 | primary index: indexCount x 8 |  position of each secondary index block, 0 = none yet
 *    | (padding to 64)               |
 *    | records from dataStart ...    |
 * </pre>
 *
 * A secondary index block is a metadata record whose body holds {@code indexCount} longs (from the first
 * 8-aligned position after the record header): the position of
 * every {@code indexSpacing}-th excerpt. Entry {@code e} covers sequence {@code e * indexSpacing}; entry
 * {@code e} lives in block {@code e / indexCount}, slot {@code e % indexCount}.
 */
public final class CycleFileLayout {
    public static final long MAGIC = 0x656c6379632e7163L; // "cq.cycle" read little-endian
    public static final int FORMAT_VERSION = 1;
    public static final int HEADER_LENGTH = 256;

    public static final long MAGIC_OFFSET = 0;
    public static final long FORMAT_VERSION_OFFSET = 8;
    public static final long HEADER_LENGTH_OFFSET = 12;
    public static final long CYCLE_OFFSET = 16;
    public static final long SEQUENCE_BITS_OFFSET = 24;
    public static final long INDEX_COUNT_OFFSET = 28;
    public static final long INDEX_SPACING_OFFSET = 32;
    public static final long BLOCK_SIZE_OFFSET = 40;
    public static final long CREATED_MILLIS_OFFSET = 48;
    public static final long DATA_START_OFFSET = 56;
    public static final long WRITE_POSITION_OFFSET = 64;
    public static final long SEQUENCE_OFFSET = 72;
    public static final long PRIMARY_INDEX_OFFSET = HEADER_LENGTH;

    public static final int CACHE_LINE = 64;

    private CycleFileLayout() {
    }

    public static long dataStart(int indexCount) {
        long end = PRIMARY_INDEX_OFFSET + (long) indexCount * Long.BYTES;
        return (end + CACHE_LINE - 1) & -CACHE_LINE;
    }

    public static long primaryEntryOffset(int block) {
        return PRIMARY_INDEX_OFFSET + (long) block * Long.BYTES;
    }

    /**
     * Payload length of a secondary index block record: its entries plus 4 bytes of slack, because records are
     * 4-aligned and the entries must be 8-aligned for atomic access.
     */
    public static int indexBlockLength(int indexCount) {
        return indexCount * Long.BYTES + Integer.BYTES;
    }

    /** Position of a slot inside a secondary index block that starts (header included) at blockPosition. */
    public static long secondaryEntryPosition(long blockPosition, int slot) {
        long entries = (blockPosition + ExcerptHeader.SIZE + Long.BYTES - 1) & -Long.BYTES;
        return entries + (long) slot * Long.BYTES;
    }
}
