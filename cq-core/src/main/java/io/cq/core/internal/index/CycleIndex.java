package io.cq.core.internal.index;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
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
    /** The file's length when last read: positions below it need no system call to be checked. */
    private volatile long knownLength;

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

    /** The position of a secondary index block, or 0 when it is not written yet. */
    public long primaryEntry(int block) {
        long position = Memory.getLongAcquire(header, IndexDescriptor.primaryEntryOffset(block));
        if (position != 0 && !isRecordPosition(position)) {
            throw new CorruptQueueException(file.path(), IndexDescriptor.primaryEntryOffset(block), "primary index "
                    + "entry " + block + " holds " + position + ", not a record position in the file (from "
                    + dataStart + ", 4-byte aligned, below its length " + file.size() + ")");
        }
        return position;
    }

    /** Whether a position can be a record's: in the data area, aligned, and within the file. */
    private boolean isRecordPosition(long position) {
        if (position < dataStart || (position & (ExcerptHeaderDescriptor.SIZE - 1)) != 0) {
            return false;
        }
        if (position < knownLength) {
            return true;
        }
        knownLength = file.size();
        return position < knownLength;
    }

    /** Publishes a secondary index block written (zero-filled and its record published) at blockPosition. */
    public void publishPrimaryEntry(int block, long blockPosition) {
        Memory.putLongRelease(header, IndexDescriptor.primaryEntryOffset(block), blockPosition);
    }

    /** Records the position of an excerpt whose sequence is a multiple of the spacing. */
    public void publishEntry(long sequence, long position) {
        long entry = sequence >>> spacingShift;
        if (entry >= capacity()) {
            return;
        }
        long blockPosition = primaryEntry((int) (entry / indexCount));
        if (blockPosition != 0) {
            file.putLongRelease(IndexDescriptor.secondaryEntryPosition(blockPosition, (int) (entry % indexCount)),
                    position);
        }
    }

    /**
     * For a repair cutting the records at {@code end}: clears every entry that points there or beyond (or that is
     * no position at all), so nothing leads into the cut range. Under the write lock.
     */
    public void clearFrom(long end) {
        for (int block = 0; block < indexCount; block++) {
            long offset = IndexDescriptor.primaryEntryOffset(block);
            long blockPosition = Memory.getLongAcquire(header, offset);
            if (blockPosition == 0) {
                continue;
            }
            if (blockPosition >= end || blockPosition < dataStart || (blockPosition & 3) != 0) {
                Memory.putLongRelease(header, offset, 0);
                continue;
            }
            for (int slot = 0; slot < indexCount; slot++) {
                long entryAt = IndexDescriptor.secondaryEntryPosition(blockPosition, slot);
                long position = longAt(entryAt);
                if (position != 0 && (position >= end || position <= entryAt)) {
                    file.putLongRelease(entryAt, 0);
                }
            }
        }
    }

    /**
     * Moves {@code cursor} to the indexed excerpt at or before {@code sequence}, or to the first record when
     * nothing before it is indexed yet.
     */
    public void floorEntry(long sequence, Position cursor) {
        long entry = Math.min(sequence >>> spacingShift, capacity() - 1);
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
                    long indexed = ((long) block * indexCount + slot) << spacingShift;
                    requireExcerptAt(entryAt, position, indexed);
                    cursor.set(position, indexed);
                    return;
                }
            }
        }
        cursor.set(dataStart, 0);
    }

    /**
     * An index entry must point at an excerpt after its index block: a damaged one would send a reader into the
     * middle of a record, or past the records, where the excerpt it asked for would pass for missing.
     */
    private void requireExcerptAt(long entryAt, long position, long sequence) {
        int header = isRecordPosition(position) && position > entryAt ? file.intAcquireAt(position) : 0;
        if (!ExcerptHeaderDescriptor.isData(header)) {
            throw new CorruptQueueException(file.path(), entryAt, "the index entry of excerpt " + sequence
                    + " points at position " + position + ", which holds " + (header == 0 && !isRecordPosition(position)
                    ? "no record (outside the records)" : ExcerptHeaderDescriptor.describe(header))
                    + " instead of an excerpt");
        }
    }

    /** A long written with release semantics, or 0 where a read-only file does not reach yet. */
    private long longAt(long position) {
        return file.longAcquireAt(position);
    }
}
