package io.cq.core.internal.index;

import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.memory.MappedFile;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;

/**
 * One cycle file's index (layout in {@link IndexDescriptor}): finds the indexed excerpt at or before a sequence,
 * and records entries as the write-lock holder publishes excerpts. Thread-safe for reading; written only under
 * the queue's write lock.
 */
public final class CycleIndex {
    private final MappedFile file;
    private final MemorySegment header;
    private final int indexCount;
    private final int indexSpacing;
    private final long spacingMask;
    private final int spacingShift;
    private final long dataStart;
    /** Made on first use: a new queue's first excerpt needs none (its appender wrote the only block itself). */
    private volatile IndexPointers pointers;
    /**
     * Under the write lock only: the primary slot an appender last found pointing at an index block before its write
     * position, or wrote itself. Records do not move, so while the slot holds the same position the block is the
     * same, and an indexed append costs one load of the slot instead of a look at the block's header.
     */
    private int checkedBlock = -1;
    private long checkedBlockPosition;

    /**
     * @param header the file's first chunk, which holds the primary index
     */
    public CycleIndex(MappedFile file, MemorySegment header, int indexCount, int indexSpacing, long dataStart) {
        this.file = file;
        this.header = header;
        this.indexCount = indexCount;
        this.indexSpacing = indexSpacing;
        this.spacingMask = indexSpacing - 1L;
        this.spacingShift = Integer.numberOfTrailingZeros(indexSpacing);
        this.dataStart = dataStart;
    }

    private IndexPointers pointers() {
        IndexPointers made = pointers;
        if (made == null) {
            made = new IndexPointers(file, dataStart, indexCount);
            pointers = made;
        }
        return made;
    }

    public int indexCount() {
        return indexCount;
    }

    public int indexSpacing() {
        return indexSpacing;
    }

    /** Whether an excerpt with this sequence number gets an index entry (the spacing is a power of two). */
    public boolean isIndexed(long sequence) {
        return (sequence & spacingMask) == 0;
    }

    /** Entries the index can hold; excerpts past {@code capacity * indexSpacing} are found by scanning. */
    public long capacity() {
        return IndexDescriptor.capacity(indexCount);
    }

    /**
     * The position of a secondary index block, or 0 when it is not written yet; checked to be an index block record
     * of this file before anything follows it ({@link IndexPointers}).
     */
    public long primaryEntry(int block) {
        long position = rawPrimaryEntry(block);
        if (position != 0) {
            pointers().requireIndexBlock(block, position);
        }
        return position;
    }

    /**
     * For an appender about to write an indexed excerpt at {@code writePosition}: the block's position (0 when it is
     * not written yet), checked as {@link #primaryEntry(int)} does and to lie before the write position, so that
     * the entry it gets is written into an index block, never over a record.
     */
    public long primaryEntryBefore(int block, long writePosition) {
        long position = rawPrimaryEntry(block);
        if (position != 0 && (block != checkedBlock || position != checkedBlockPosition)) {
            pointers().requireIndexBlock(block, position);
            pointers().requireBlockBefore(block, position, writePosition);
            checkedBlock = block;
            checkedBlockPosition = position;
        }
        return position;
    }

    /** The primary slot as the file holds it, unchecked: for a repair, which sets it to what the records say. */
    long rawPrimaryEntry(int block) {
        return Memory.getLongAcquire(header, IndexDescriptor.primaryEntryOffset(block));
    }

    /** Publishes a secondary index block written (zero-filled and its record published) at blockPosition. */
    public void publishPrimaryEntry(int block, long blockPosition) {
        Memory.putLongRelease(header, IndexDescriptor.primaryEntryOffset(block), blockPosition);
        checkedBlock = block;
        checkedBlockPosition = blockPosition;
    }

    /**
     * Records the position of an excerpt whose sequence is a multiple of the spacing, in the block its primary slot
     * names; the slot was checked by {@link #primaryEntryBefore} when the excerpt was started, under the same hold
     * of the write lock.
     */
    public void publishEntry(long sequence, long position) {
        long entry = sequence >>> spacingShift;
        if (entry >= capacity()) {
            return;
        }
        long blockPosition = primaryEntryBefore((int) (entry / indexCount), position);
        if (blockPosition != 0) {
            file.putLongRelease(IndexDescriptor.secondaryEntryPosition(blockPosition, (int) (entry % indexCount)),
                    position);
        }
    }

    /**
     * For a repair: sets the primary slots and the entries to what the records up to {@code end} say (IndexRebuild).
     *
     * @return the position of the first slot or entry that held something else, or -1 when the index was right
     */
    public long rebuild(long end) {
        long changed = new IndexRebuild(this, file, dataStart, end).run();
        pointers().forget();
        checkedBlock = -1;
        return changed;
    }

    /**
     * Moves {@code cursor} to the indexed excerpt at or before {@code sequence}, or to the first record when
     * nothing before it is indexed yet. The entry is checked to point at its excerpt (IndexPointers).
     */
    public void floorEntry(long sequence, Position cursor) {
        long entry = Math.min(sequence >>> spacingShift, capacity() - 1);
        long found = floorWrittenEntry(entry, cursor);
        if (found < 0) {
            cursor.set(dataStart, 0);
            return;
        }
        long position = cursor.position();
        long entryAt = cursor.sequence();
        long indexed = found << spacingShift;
        long before = found > 0 ? floorWrittenEntry(found - 1, cursor) : -1;
        long fromPosition = before < 0 ? dataStart : cursor.position();
        long fromSequence = before < 0 ? 0 : before << spacingShift;
        pointers().requireExcerptAt(entryAt, position, indexed, fromPosition, fromSequence);
        cursor.set(position, indexed);
    }

    /**
     * The highest written entry at or below {@code entry}, or -1; {@code cursor} gets its position and (in place of
     * a sequence) the entry's own position in the file.
     */
    private long floorWrittenEntry(long entry, Position cursor) {
        int block = (int) (entry / indexCount);
        int slot = (int) (entry % indexCount);
        for (; block >= 0; block--, slot = indexCount - 1) {
            long blockPosition = primaryEntry(block);
            if (blockPosition == 0) {
                continue;
            }
            for (; slot >= 0; slot--) {
                long entryAt = IndexDescriptor.secondaryEntryPosition(blockPosition, slot);
                long position = longAt(entryAt);
                if (position != 0) {
                    cursor.set(position, entryAt);
                    return (long) block * indexCount + slot;
                }
            }
        }
        return -1;
    }

    /** A long written with release semantics, or 0 where a read-only file does not reach yet. */
    private long longAt(long position) {
        return file.longAcquireAt(position);
    }
}
