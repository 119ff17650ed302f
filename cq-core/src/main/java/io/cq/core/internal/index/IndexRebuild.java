package io.cq.core.internal.index;

import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.memory.MappedFile;

/**
 * For a repair, under the write lock: sets a cycle's index to what its records say, so that a damaged primary slot
 * or entry (one pointing at an excerpt, past the records, into the header) no longer keeps appenders out, and
 * nothing leads into a range the repair cut. Walks the records up to {@code end}, which the repair found readable.
 *
 * <p>The index block of block {@code b} is the last index block record written before the excerpt that opens it
 * (sequence {@code b × indexCount × indexSpacing}): an appender writes it just before that excerpt, and one that
 * died between writing a block and its primary slot left an earlier block that the next appender wrote again. A
 * slot or entry is written only where it holds something else, so a repair writes no zeros over index pages a
 * finished cycle gave back (docs/file-format.md, "Unused index space").
 */
final class IndexRebuild {
    private final CycleIndex index;
    private final MappedFile file;
    private final long dataStart;
    private final long end;
    private final int blockLength;
    private long firstChanged = -1;

    IndexRebuild(CycleIndex index, MappedFile file, long dataStart, long end) {
        this.index = index;
        this.file = file;
        this.dataStart = dataStart;
        this.end = end;
        this.blockLength = IndexDescriptor.indexBlockLength(index.indexCount());
    }

    /** @return the position of the first slot or entry changed, or -1 */
    long run() {
        int indexCount = index.indexCount();
        long spacing = index.indexSpacing();
        long capacity = index.capacity();
        long pendingBlock = 0;
        long currentBlock = 0;
        int nextBlock = 0;
        int nextSlot = 0;
        long sequence = 0;
        long position = dataStart;
        while (position + ExcerptHeaderDescriptor.SIZE <= end) {
            int header = file.intAcquireAt(position);
            int length = ExcerptHeaderDescriptor.length(header);
            if (ExcerptHeaderDescriptor.isData(header)) {
                long entry = sequence / spacing;
                if (sequence % spacing == 0 && entry < capacity) {
                    int slot = (int) (entry % indexCount);
                    if (slot == 0) {
                        currentBlock = pendingBlock;
                        setPrimary(nextBlock++, currentBlock);
                    }
                    if (currentBlock != 0) {
                        setEntry(currentBlock, slot, position);
                    }
                    nextSlot = slot + 1;
                }
                pendingBlock = 0;
                sequence++;
            } else if (ExcerptHeaderDescriptor.isMeta(header) && !ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                pendingBlock = length == blockLength ? position : pendingBlock;
            } else {
                break;
            }
            position = ExcerptHeaderDescriptor.next(position, length);
        }
        long entry = sequence / spacing;
        if (sequence % spacing == 0 && entry < capacity && entry % indexCount == 0 && pendingBlock != 0) {
            // The block of the next excerpt, written before an append that was rolled back or not yet made.
            currentBlock = pendingBlock;
            setPrimary(nextBlock++, currentBlock);
            nextSlot = 0;
        }
        if (currentBlock != 0 && nextBlock > 0) {
            for (int slot = nextSlot; slot < indexCount; slot++) {
                setEntry(currentBlock, slot, 0);
            }
        }
        for (int block = nextBlock; block < indexCount; block++) {
            setPrimary(block, 0);
        }
        return firstChanged;
    }

    private void setPrimary(int block, long blockPosition) {
        if (index.rawPrimaryEntry(block) != blockPosition) {
            index.publishPrimaryEntry(block, blockPosition);
            changed(IndexDescriptor.primaryEntryOffset(block));
        }
    }

    private void setEntry(long blockPosition, int slot, long position) {
        long entryAt = IndexDescriptor.secondaryEntryPosition(blockPosition, slot);
        if (file.longAcquireAt(entryAt) != position) {
            file.putLongRelease(entryAt, position);
            changed(entryAt);
        }
    }

    private void changed(long at) {
        if (firstChanged < 0) {
            firstChanged = at;
        }
    }
}
