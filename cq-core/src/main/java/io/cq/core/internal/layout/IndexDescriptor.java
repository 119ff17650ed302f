package io.cq.core.internal.layout;

/**
 * A cycle file's two-level sparse index (docs/file-format.md, "Index"). Entry {@code e} is the position of
 * excerpt {@code e * indexSpacing}. The primary index, in the file header, holds for each block {@code b} the
 * position of a secondary index block: a metadata record whose body holds {@code indexCount} entries.
 *
 * <pre>
 *  header                                   records
 *  +---------------------------+            +--------+--------------+----------------------------------+
 *  | 256: primary[0]           | ---------> | header | (4 slack)    | entry 0 | entry 1 | ... | entry n-1 |
 *  |      primary[1]           | ---+       +--------+--------------+----------------------------------+
 *  |      ...  (indexCount x 8)|    |                 secondary block 0: entries 0 .. indexCount-1
 *  +---------------------------+    +---->  secondary block 1: entries indexCount .. 2 indexCount-1
 *
 *  entry e: block e / indexCount, slot e % indexCount; 0 = not written yet (primary slot or entry)
 * </pre>
 *
 * Entries are 8-aligned inside the block body for atomic access; records are only 4-aligned, hence 4 bytes of
 * slack. An index block is published before the excerpt whose entry opens it; the entry after that excerpt.
 * Both are release stores read with acquire loads. A cycle indexes {@code indexCount² × indexSpacing} excerpts.
 */
public final class IndexDescriptor {
    /** The primary index follows the cycle file's fixed header fields. */
    public static final long PRIMARY_INDEX_OFFSET = CycleHeaderDescriptor.HEADER_LENGTH;
    /** The largest index count a file may declare. */
    public static final int MAX_INDEX_COUNT = 1 << 20;
    /** The largest index spacing (a power of two) a queue may use. */
    public static final int MAX_INDEX_SPACING = 1 << 20;

    private IndexDescriptor() {
    }

    /** Offset, in the file header, of the primary slot of a secondary block. */
    public static long primaryEntryOffset(int block) {
        return PRIMARY_INDEX_OFFSET + (long) block * Long.BYTES;
    }

    /** Payload length of a secondary index block record: its entries plus 4 bytes of alignment slack. */
    public static int indexBlockLength(int indexCount) {
        return indexCount * Long.BYTES + Integer.BYTES;
    }

    /** Position of a slot inside a secondary index block that starts (record header included) at blockPosition. */
    public static long secondaryEntryPosition(long blockPosition, int slot) {
        long entries = (blockPosition + ExcerptHeaderDescriptor.SIZE + Long.BYTES - 1) & -Long.BYTES;
        return entries + (long) slot * Long.BYTES;
    }

    /** Entries a file with this index count can hold. */
    public static long capacity(int indexCount) {
        return (long) indexCount * indexCount;
    }
}
