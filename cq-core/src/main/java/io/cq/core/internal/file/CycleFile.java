package io.cq.core.internal.file;

import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.CycleFileLayout;
import io.cq.core.internal.layout.ExcerptHeader;
import io.cq.core.internal.layout.Limits;
import io.cq.core.internal.memory.MappedFile;
import io.cq.core.internal.memory.Memory;
import io.cq.core.CorruptQueueException;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * One open cycle file: its header fields, its index, and the walk over its records. Shared by the appenders
 * and tailers of a queue and reference-counted by {@link CycleFiles}; unmapped when the last user releases it.
 *
 * <p>Thread-safe for reading; header hints and index entries are written only under the queue's write lock.
 */
public final class CycleFile {
    /** Where a {@link #locate} ended. */
    public enum Found {
        /** On the excerpt asked for. */
        EXCERPT,
        /** On the end of the written records: the sequence asked for is the next one to be written. */
        END,
        /** The cycle holds fewer excerpts than the sequence asked for (or is damaged before it). */
        NOT_REACHED
    }

    private final MappedFile file;
    private final long cycle;
    private final int indexCount;
    private final int indexSpacing;
    private final long spacingMask;
    private final int spacingShift;
    private final long dataStart;
    private final long maxExcerptSize;
    private final MemorySegment header;
    int references;

    CycleFile(MappedFile file, long cycle) {
        this.file = file;
        this.cycle = cycle;
        this.header = file.chunk(0);
        if (header == null) {
            throw new CorruptQueueException(file.path(), file.size(), "cycle file is " + file.size()
                    + " bytes long, shorter than its first block of " + file.blockSize() + " bytes (cut short?)");
        }
        this.indexCount = Memory.getInt(header, CycleFileLayout.INDEX_COUNT_OFFSET);
        this.indexSpacing = Memory.getInt(header, CycleFileLayout.INDEX_SPACING_OFFSET);
        this.spacingMask = indexSpacing - 1L;
        this.spacingShift = Integer.numberOfTrailingZeros(indexSpacing);
        this.dataStart = Memory.getLong(header, CycleFileLayout.DATA_START_OFFSET);
        this.maxExcerptSize = Limits.maxExcerptSize(file.blockSize());
    }

    public MappedFile mapped() {
        return file;
    }

    public Path path() {
        return file.path();
    }

    public long cycle() {
        return cycle;
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

    public long dataStart() {
        return dataStart;
    }

    public long blockSize() {
        return file.blockSize();
    }

    public long maxExcerptSize() {
        return maxExcerptSize;
    }

    public long createdMillis() {
        return Memory.getLong(header, CycleFileLayout.CREATED_MILLIS_OFFSET);
    }

    public long writePositionHint() {
        return Memory.getLongAcquire(header, CycleFileLayout.WRITE_POSITION_OFFSET);
    }

    public long sequenceHint() {
        return Memory.getLongAcquire(header, CycleFileLayout.SEQUENCE_OFFSET);
    }

    /** Called by the write-lock holder after each publish; the lock's release makes them visible to the next. */
    public void updateHints(long writePosition, long sequence) {
        Memory.putLongRelease(header, CycleFileLayout.SEQUENCE_OFFSET, sequence);
        Memory.putLongRelease(header, CycleFileLayout.WRITE_POSITION_OFFSET, writePosition);
    }

    /** The record header at a position; {@link ExcerptHeader#EMPTY} where a read-only file does not reach yet. */
    public int headerAt(long position) {
        MemorySegment chunk = file.existingChunk(file.chunkIndex(position));
        return chunk == null ? ExcerptHeader.EMPTY : Memory.getIntAcquire(chunk, position % file.blockSize());
    }

    // ---- index ------------------------------------------------------------------------------------------

    public long primaryEntry(int block) {
        return Memory.getLongAcquire(header, CycleFileLayout.primaryEntryOffset(block));
    }

    public void publishPrimaryEntry(int block, long blockPosition) {
        Memory.putLongRelease(header, CycleFileLayout.primaryEntryOffset(block), blockPosition);
    }

    /** Entries the index can hold; excerpts past {@code capacity * indexSpacing} are found by scanning. */
    public long indexCapacity() {
        return (long) indexCount * indexCount;
    }

    /** Records the position of an excerpt whose sequence is a multiple of the spacing. */
    public void publishIndexEntry(long sequence, long position) {
        long entry = sequence >>> spacingShift;
        if (entry >= indexCapacity()) {
            return;
        }
        long blockPosition = primaryEntry((int) (entry / indexCount));
        if (blockPosition != 0) {
            file.putLongRelease(CycleFileLayout.secondaryEntryPosition(blockPosition, (int) (entry % indexCount)), position);
        }
    }

    /** A long written with release semantics, or 0 where a read-only file does not reach yet. */
    private long longAt(long position) {
        MemorySegment chunk = file.existingChunk(file.chunkIndex(position));
        return chunk == null ? 0 : Memory.getLongAcquire(chunk, position % file.blockSize());
    }

    /**
     * Moves {@code cursor} to the indexed excerpt at or before {@code sequence}, or to the first record when
     * nothing before it is indexed yet.
     */
    public void floorIndexEntry(long sequence, Position cursor) {
        long entry = Math.min(sequence >>> spacingShift, indexCapacity() - 1);
        int block = (int) (entry / indexCount);
        int slot = (int) (entry % indexCount);
        for (; block >= 0; block--, slot = indexCount - 1) {
            long blockPosition = primaryEntry(block);
            if (blockPosition == 0) {
                continue;
            }
            for (; slot >= 0; slot--) {
                long position = longAt(CycleFileLayout.secondaryEntryPosition(blockPosition, slot));
                if (position != 0) {
                    cursor.set(position, ((long) block * indexCount + slot) << spacingShift);
                    return;
                }
            }
        }
        cursor.set(dataStart, 0);
    }

    /**
     * Moves {@code cursor} to the excerpt with the given sequence number: from the nearest index entry, then
     * record by record. On {@link Found#END} the cursor is on the free space after the last record (or on the
     * end-of-cycle mark), with its sequence the number of excerpts in the cycle.
     */
    public Found locate(long sequence, Position cursor) {
        floorIndexEntry(sequence, cursor);
        return walk(sequence, cursor);
    }

    /** Moves {@code cursor} to the end of the written records; its sequence becomes the excerpt count. */
    public void locateEnd(Position cursor) {
        long hint = sequenceHint();
        floorIndexEntry(hint, cursor);
        walk(Long.MAX_VALUE, cursor);
    }

    /** Number of excerpts written to this cycle so far. */
    public long excerptCount(Position scratch) {
        locateEnd(scratch);
        return scratch.sequence();
    }

    private Found walk(long target, Position cursor) {
        long position = cursor.position();
        long sequence = cursor.sequence();
        while (true) {
            int header = headerAt(position);
            if (ExcerptHeader.isData(header)) {
                if (sequence == target) {
                    cursor.set(position, sequence);
                    return Found.EXCERPT;
                }
                position = next(position, header);
                sequence++;
            } else if (ExcerptHeader.isMeta(header) && !ExcerptHeader.isEndOfCycle(header)) {
                position = next(position, header);
            } else if (header == ExcerptHeader.EMPTY || ExcerptHeader.isWorking(header)
                    || ExcerptHeader.isEndOfCycle(header)) {
                break;
            } else {
                throw new CorruptQueueException(path(), position, "expected a record header, found "
                        + ExcerptHeader.describe(header));
            }
        }
        cursor.set(position, sequence);
        return sequence == target ? Found.END : Found.NOT_REACHED;
    }

    /** Position of the record after the one at {@code position}, checking the length against the file's limit. */
    public long next(long position, int header) {
        int length = ExcerptHeader.length(header);
        if (length > maxExcerptSize) {
            throw new CorruptQueueException(path(), position, "record length " + length
                    + " exceeds the file's largest excerpt of " + maxExcerptSize + " bytes");
        }
        return ExcerptHeader.next(position, length);
    }

    @Override
    public String toString() {
        return path().toString();
    }
}
