package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.index.CycleIndex;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.MappedFile;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * One open cycle file: its header fields, its {@link CycleIndex index}, and the walk over its records. Shared by the
 * appenders and tailers of a queue and reference-counted by {@link CycleFiles}; unmapped when the last user releases
 * it.
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
    private final CycleIndex index;
    private final long dataStart;
    private final long maxExcerptSize;
    private final MemorySegment header;
    /** How its excerpts are framed (docs/file-format.md, "Excerpt codecs"); null: stored as written. */
    private final FileCodecs codecs;
    /** Whether an appender of this JVM has checked the file's tail (written once, under the write lock). */
    private volatile boolean tailChecked;
    int references;

    /** @param queueCodecs how the queue frames its excerpts (its table store's codecs); null for a plain queue */
    CycleFile(MappedFile file, long cycle, FileCodecs queueCodecs) {
        this.file = file;
        this.cycle = cycle;
        // The header and the primary index only (the file's length was checked against them): mapping no more
        // keeps a reader from needing the records, and a writer's reading from growing a finished file.
        // Read, not mapped: a writing process maps the header read-write below, and maps for reading only when read.
        long headerEnd = file.readLongAt(CycleHeaderDescriptor.DATA_START_OFFSET);
        this.header = file.headerChunk(headerEnd);
        this.dataStart = headerEnd;
        this.index = new CycleIndex(file, header, Memory.getInt(header, CycleHeaderDescriptor.INDEX_COUNT_OFFSET),
                Memory.getInt(header, CycleHeaderDescriptor.INDEX_SPACING_OFFSET), dataStart);
        this.maxExcerptSize = BlockDescriptor.maxExcerptSize(file.blockSize());
        // A plain file (version 1) loads none of the codec classes.
        this.codecs = Memory.getInt(header, CycleHeaderDescriptor.FORMAT_VERSION_OFFSET)
                == CodecDescriptor.CYCLE_FILE_VERSION ? FileCodecs.read(file.path(),
                header.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN)) : null;
        if (codecs != queueCodecs && (codecs == null || !codecs.sameFormatAs(queueCodecs))) {
            // Damage to either header would otherwise hand out frames as excerpts, or excerpts as frames.
            throw new CorruptQueueException(file.path(), CodecDescriptor.FILE_FLAGS_OFFSET, "the file frames its "
                    + "excerpts " + FileCodecs.describe(codecs) + ", its queue's table store says "
                    + FileCodecs.describe(queueCodecs) + ": one of the two headers is damaged, or the file is another "
                    + "queue's");
        }
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

    /** The file's index (docs/file-format.md, "Index"). */
    public CycleIndex index() {
        return index;
    }

    public long dataStart() {
        return dataStart;
    }

    /** How this file's excerpts are framed, as its header says; null when they are stored as written. */
    public FileCodecs codecs() {
        return codecs;
    }

    public long blockSize() {
        return file.blockSize();
    }

    public long maxExcerptSize() {
        return maxExcerptSize;
    }

    public long createdMillis() {
        return Memory.getLong(header, CycleHeaderDescriptor.CREATED_MILLIS_OFFSET);
    }

    /** Where the next record goes, as far as its writers have said; checked, since every append starts there. */
    public long writePositionHint() {
        long position = Memory.getLongAcquire(header, CycleHeaderDescriptor.WRITE_POSITION_OFFSET);
        if (!file.isReachable(position)) {
            throw new CorruptQueueException(path(), CycleHeaderDescriptor.WRITE_POSITION_OFFSET, "the write position "
                    + "hint holds " + position + ", not a position in a cycle file");
        }
        return position;
    }

    /** How many excerpts its writers have published, as far as they have said; checked like the write position. */
    public long sequenceHint() {
        long sequence = Memory.getLongAcquire(header, CycleHeaderDescriptor.SEQUENCE_OFFSET);
        if (sequence < 0) {
            throw new CorruptQueueException(path(), CycleHeaderDescriptor.SEQUENCE_OFFSET, "the sequence hint holds "
                    + sequence + ", not a number of excerpts");
        }
        return sequence;
    }

    /**
     * Where the records reached when they last reached a new 4 KiB page (0 in files of writers that do not keep it):
     * records start at every record position below it. Not checked: a reader only compares it, and a wrong one sends
     * it to the exact check through {@link #writePositionHint()}.
     */
    public long pageHint() {
        return Memory.getLongAcquire(header, CycleHeaderDescriptor.PAGE_HINT_OFFSET);
    }

    /**
     * The write-lock holder opens a record at {@code position}: stored before any byte of it, so that whoever sees a
     * byte of the record after an acquire fence sees this too ({@link #openRecordHint()}).
     */
    public void markOpen(long position) {
        Memory.putLong(header, CycleHeaderDescriptor.OPEN_RECORD_OFFSET, position);
        VarHandle.storeStoreFence();
    }

    /** Where the last record was opened (0: not said); load after the bytes it is to explain, and a fence. */
    public long openRecordHint() {
        VarHandle.acquireFence();
        return Memory.getLong(header, CycleHeaderDescriptor.OPEN_RECORD_OFFSET);
    }

    /**
     * Called by the write-lock holder after each publish; the lock's release makes them visible to the next. The page
     * hint follows the write position into another page, and back below itself (after a repair).
     */
    public void updateHints(long writePosition, long sequence) {
        Memory.putLongRelease(header, CycleHeaderDescriptor.SEQUENCE_OFFSET, sequence);
        Memory.putLongRelease(header, CycleHeaderDescriptor.WRITE_POSITION_OFFSET, writePosition);
        long pageHint = Memory.getLong(header, CycleHeaderDescriptor.PAGE_HINT_OFFSET);
        if ((pageHint ^ writePosition) >>> CycleHeaderDescriptor.PAGE_HINT_SHIFT != 0 || writePosition < pageHint) {
            Memory.putLongRelease(header, CycleHeaderDescriptor.PAGE_HINT_OFFSET, writePosition);
        }
    }

    /**
     * The record header at a position; {@link ExcerptHeaderDescriptor#EMPTY} where a read-only file does not reach yet.
     */
    public int headerAt(long position) {
        return file.intAcquireAt(position);
    }

    /**
     * Moves {@code cursor} to the excerpt with the given sequence number: from the nearest index entry, then
     * record by record. On {@link Found#END} the cursor is on the free space after the last record (or on the
     * end-of-cycle mark), with its sequence the number of excerpts in the cycle.
     */
    public Found locate(long sequence, Position cursor) {
        index.floorEntry(sequence, cursor);
        return walk(sequence, cursor);
    }

    /** Moves {@code cursor} to the end of the written records; its sequence becomes the excerpt count. */
    public void locateEnd(Position cursor) {
        long hint = sequenceHint();
        index.floorEntry(hint, cursor);
        walk(Long.MAX_VALUE, cursor);
    }

    /**
     * Before this JVM first appends to an existing file: everything the hints say was written must still be in
     * the file. Appending maps a whole block, which lengthens a file cut short with zeros, and a record cut by the
     * file's end would then pass for a whole one full of zeros; so such a file is refused instead, naming what is
     * missing. A dead writer's unfinished record at the end is not damage: the appender discards it as usual.
     */
    public void checkTailForAppending() {
        if (tailChecked) {
            return;
        }
        long length = file.size();
        long written = writePositionHint();
        if (written > length) {
            throw new CorruptQueueException(path(), length, "the file ends at " + length + " but records were "
                    + "written up to position " + written + ": it was cut short; refusing to append after the lost "
                    + "records (cq verify reports what is left)");
        }
        long position = Math.max(written, dataStart);
        while (position + ExcerptHeaderDescriptor.SIZE <= length) {
            int header = headerAt(position);
            if (header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isWorking(header)
                    || ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                break;
            }
            if (!ExcerptHeaderDescriptor.isData(header) && !ExcerptHeaderDescriptor.isMeta(header)) {
                throw new CorruptQueueException(path(), position, "expected a record header at the end of the "
                        + "records, found " + ExcerptHeaderDescriptor.describe(header) + "; refusing to append");
            }
            long end = position + ExcerptHeaderDescriptor.SIZE + ExcerptHeaderDescriptor.length(header);
            if (end > length) {
                throw new CorruptQueueException(path(), position, "the last record (" + ExcerptHeaderDescriptor
                        .length(header) + " bytes) ends at " + end + ", past the end of the file (" + length
                        + " bytes): the file was cut short; refusing to append after it (cq verify reports it)");
            }
            position = next(position, header);
        }
        // The newest primary slot and entry are what an appender writes through and follows (when it catches up with
        // stale hints): checked once here, so that a damaged one refuses the first append, not the next indexed one.
        index.floorEntry(sequenceHint(), new Position());
        tailChecked = true;
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
            if (ExcerptHeaderDescriptor.isData(header)) {
                if (sequence == target) {
                    cursor.set(position, sequence);
                    return Found.EXCERPT;
                }
                position = next(position, header);
                sequence++;
            } else if (ExcerptHeaderDescriptor.isMeta(header) && !ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                position = next(position, header);
            } else if (header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isWorking(header)
                    || ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                break;
            } else {
                throw new CorruptQueueException(path(), position, "expected a record header, found "
                        + ExcerptHeaderDescriptor.describe(header));
            }
        }
        cursor.set(position, sequence);
        return sequence == target ? Found.END : Found.NOT_REACHED;
    }

    /** Position of the record after the one at {@code position}, checking the length against the file's limit. */
    public long next(long position, int header) {
        int length = ExcerptHeaderDescriptor.length(header);
        if (length > maxExcerptSize) {
            throw new CorruptQueueException(path(), position, "record length " + length
                    + " exceeds the file's largest excerpt of " + maxExcerptSize + " bytes");
        }
        return ExcerptHeaderDescriptor.next(position, length);
    }

    @Override
    public String toString() {
        return path().toString();
    }
}
