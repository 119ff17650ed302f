package io.cq.core.internal.index;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.memory.MappedFile;

/**
 * Checks what a cycle's index pointers point at before anything follows them (docs/file-format.md, "Index"). A
 * primary slot must name an index block record of this file: past the header and primary index, 4-byte aligned,
 * whole within the file, with a metadata header of exactly an index block's length. A secondary entry must name
 * the excerpt it indexes: a published excerpt past its own block, reached from the entry before it by stepping
 * over exactly {@code indexSpacing} excerpts. A pointer that fails is a {@link CorruptQueueException} naming the
 * file and the pointer's own position: an appender writing index entries through a slot that points at an excerpt
 * would write over that excerpt's bytes, and a reader following it would return another excerpt than the one asked
 * for.
 */
final class IndexPointers {
    private final MappedFile file;
    private final long dataStart;
    private final int indexCount;
    private final int blockLength;
    private final long maxRecord;
    /** The file's length when last read: positions below it need no system call to be checked. */
    private volatile long knownLength;
    /** The last entry whose chain to the entry before it was walked: readers seek near it again and again. */
    private volatile CheckedEntry lastChecked;

    private record CheckedEntry(long entryAt, long position) {
    }

    IndexPointers(MappedFile file, long dataStart, int indexCount) {
        this.file = file;
        this.dataStart = dataStart;
        this.indexCount = indexCount;
        this.blockLength = IndexDescriptor.indexBlockLength(indexCount);
        this.maxRecord = BlockDescriptor.maxExcerptSize(file.blockSize());
    }

    /** Whether a position can be a record's: in the data area, aligned, and within the file. */
    boolean isRecordPosition(long position) {
        if (position < dataStart || (position & (ExcerptHeaderDescriptor.ALIGNMENT - 1)) != 0) {
            return false;
        }
        if (position < knownLength) {
            return true;
        }
        knownLength = file.size();
        return position < knownLength;
    }

    /** Whether the file is at least {@code end} bytes long. */
    private boolean reachesInFile(long end) {
        if (end <= knownLength) {
            return true;
        }
        knownLength = file.size();
        return end <= knownLength;
    }

    /** Where an index block at this position ends (the next record's position). */
    long blockEnd(long blockPosition) {
        return ExcerptHeaderDescriptor.next(blockPosition, blockLength);
    }

    /**
     * A non-zero primary slot must point at an index block record of this file. Costs a look at the block's header
     * word, which only lookups and every {@code indexSpacing}-th append pay.
     */
    void requireIndexBlock(int block, long position) {
        String problem = null;
        if (!isRecordPosition(position)) {
            problem = "not a record position in the file (from " + dataStart + ", 4-byte aligned, below its length "
                    + file.size() + ")";
        } else {
            int header = file.intAcquireAt(position);
            if (header != ExcerptHeaderDescriptor.meta(blockLength)) {
                problem = "a position that holds " + ExcerptHeaderDescriptor.describe(header) + " instead of an index "
                        + "block (metadata length " + blockLength + ")";
            } else if (!reachesInFile(blockEnd(position))) {
                problem = "an index block that runs past the file's end (" + file.size() + " bytes)";
            }
        }
        if (problem != null) {
            throw new CorruptQueueException(file.path(), IndexDescriptor.primaryEntryOffset(block), "primary index "
                    + "entry " + block + " holds " + position + ", " + problem + "; nothing is written or read through "
                    + "it (cq repair --skip-damaged rebuilds the index)");
        }
    }

    /** For an appender about to write at {@code writePosition}: an index block lies before it, in the records. */
    void requireBlockBefore(int block, long blockPosition, long writePosition) {
        if (blockEnd(blockPosition) > writePosition) {
            throw new CorruptQueueException(file.path(), IndexDescriptor.primaryEntryOffset(block), "primary index "
                    + "entry " + block + " holds " + blockPosition + ", past the end of the written records at "
                    + writePosition + "; nothing is written through it (cq repair --skip-damaged rebuilds the index)");
        }
    }

    /**
     * An index entry must point at the excerpt it indexes: at a published excerpt after its own block, which the
     * entry before it (at {@code fromPosition}, {@code fromSequence}; the first record for the first entry) reaches
     * by stepping over exactly the excerpts between. A damaged one would send a reader to another excerpt, into
     * the middle of a record, or past the records, where the excerpt it asked for would pass for missing.
     */
    void requireExcerptAt(long entryAt, long position, long sequence, long fromPosition, long fromSequence) {
        int header = isRecordPosition(position) && position > entryAt ? file.intAcquireAt(position) : 0;
        if (!ExcerptHeaderDescriptor.isData(header)) {
            throw new CorruptQueueException(file.path(), entryAt, "the index entry of excerpt " + sequence
                    + " points at position " + position + ", which holds " + (header == 0 && !isRecordPosition(position)
                    ? "no record (outside the records)" : ExcerptHeaderDescriptor.describe(header))
                    + " instead of an excerpt");
        }
        CheckedEntry checked = lastChecked;
        if (checked != null && checked.entryAt == entryAt && checked.position == position) {
            return;
        }
        long reached = walk(fromPosition, fromSequence, sequence, position);
        if (reached != position) {
            throw new CorruptQueueException(file.path(), entryAt, "the index entry of excerpt " + sequence
                    + " points at position " + position + ", but excerpt " + sequence + " is "
                    + (reached < 0 ? "not where the records lead from the entry before it (at " + fromPosition + ")"
                    : "at " + reached) + ": the entry points at another excerpt");
        }
        lastChecked = new CheckedEntry(entryAt, position);
    }

    /** Steps from a known excerpt to {@code sequence}; its position, or -1 where the records do not lead there. */
    private long walk(long position, long sequence, long target, long limit) {
        long p = position;
        long s = sequence;
        while (p <= limit && isRecordPosition(p)) {
            int header = file.intAcquireAt(p);
            int length = ExcerptHeaderDescriptor.length(header);
            if (ExcerptHeaderDescriptor.isData(header) && s == target) {
                return p;
            }
            boolean record = ExcerptHeaderDescriptor.isData(header)
                    || (ExcerptHeaderDescriptor.isMeta(header) && !ExcerptHeaderDescriptor.isEndOfCycle(header));
            if (!record || length > maxRecord) {
                return -1;
            }
            s += ExcerptHeaderDescriptor.isData(header) ? 1 : 0;
            p = ExcerptHeaderDescriptor.next(p, length);
        }
        return -1;
    }

    /** Forgets the entry last checked: a repair rewrote the index. */
    void forget() {
        lastChecked = null;
    }

    int indexCount() {
        return indexCount;
    }
}
