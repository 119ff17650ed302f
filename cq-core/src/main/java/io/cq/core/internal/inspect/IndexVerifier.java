package io.cq.core.internal.inspect;

import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.IndexDescriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Checks one cycle's index against its records, as {@link QueueVerifier} walks them (docs/file-format.md, "Index"):
 * the primary slot of each block names the index block written just before the excerpt that opens it (the last
 * one, where a writer that died between a block and its slot left an earlier one); each entry of an excerpt that
 * exists names that excerpt (or is 0: a writer died between publishing it and its entry); and everything else is
 * zero, as the writer left it: the entries of excerpts not written yet, the primary slots of blocks not started,
 * every entry of an index block no slot names, and each block's 4 bytes of alignment slack. Bytes there would be
 * followed by the next appender or by a reader seeking past the end. Each finding names the slot's or entry's
 * position; at most {@link #MOST_FINDINGS} a file, so that a block of garbage is a few lines, not thousands.
 */
final class IndexVerifier {
    private static final int MOST_FINDINGS = 8;

    /** What is wrong where. */
    record Damage(long position, String description) {
    }

    private final CycleFile file;
    private final List<Damage> findings = new ArrayList<>();
    private final int indexCount;
    private final long spacing;
    private final long capacity;
    private final int blockLength;
    private int found;
    private int left;
    /** An index block seen since the last excerpt: the block of the next excerpt that opens one. */
    private long pendingBlock;
    private long currentBlock;
    private int nextBlock;
    private int nextSlot;

    IndexVerifier(CycleFile file) {
        this.file = file;
        this.indexCount = file.index().indexCount();
        this.spacing = file.index().indexSpacing();
        this.capacity = file.index().capacity();
        this.blockLength = IndexDescriptor.indexBlockLength(indexCount);
    }

    /** Whether a metadata record of this length is an index block. */
    boolean isIndexBlock(int length) {
        return length == blockLength;
    }

    void onIndexBlock(long position) {
        if (pendingBlock != 0) {
            requireZeroBlock(pendingBlock);
        }
        pendingBlock = position;
    }

    void onExcerpt(long sequence, long position) {
        long entry = sequence / spacing;
        boolean indexed = sequence % spacing == 0 && entry < capacity;
        if (indexed && entry % indexCount == 0) {
            if (currentBlock != 0) {
                requireZeroSlack(currentBlock);
            }
            currentBlock = pendingBlock;
            pendingBlock = 0;
            checkPrimary(nextBlock++, currentBlock, sequence);
        } else if (pendingBlock != 0) {
            requireZeroBlock(pendingBlock);
            pendingBlock = 0;
        }
        if (indexed && currentBlock != 0) {
            int slot = (int) (entry % indexCount);
            long entryAt = IndexDescriptor.secondaryEntryPosition(currentBlock, slot);
            long held = file.mapped().longAcquireAt(entryAt);
            if (held != 0 && held != position) {
                damage(entryAt, "the index entry of excerpt " + sequence + " of the cycle points at " + held
                        + " instead of its record at " + position + "; cq repair --skip-damaged rebuilds the index");
            }
            nextSlot = slot + 1;
        }
    }

    /**
     * Once the walk reached the end of the records without damage, {@code excerpts} of them: what lies beyond is
     * unused and must be zero. {@code stillThere} is asked before reporting, for a live writer that appended since.
     */
    void finish(long excerpts, BooleanSupplier stillThere) {
        int before = found;
        int reported = findings.size();
        long entry = excerpts / spacing;
        boolean opensBlock = excerpts % spacing == 0 && entry < capacity && entry % indexCount == 0;
        if (pendingBlock != 0 && opensBlock) {
            // Written for the next excerpt, whose append was rolled back or is being made: its slot may name it.
            long held = primary(nextBlock);
            if (held != 0 && held != pendingBlock) {
                checkPrimary(nextBlock, pendingBlock, excerpts);
            }
            requireZeroBlock(pendingBlock);
            nextBlock++;
        } else if (pendingBlock != 0) {
            requireZeroBlock(pendingBlock);
        }
        if (currentBlock != 0) {
            long from = IndexDescriptor.secondaryEntryPosition(currentBlock, nextSlot);
            requireZero(from, IndexDescriptor.secondaryEntryPosition(currentBlock, indexCount), "unused index "
                    + "entries (from slot " + nextSlot + " of the index block at " + currentBlock + ", after the "
                    + excerpts + " excerpts of the cycle)");
            requireZeroSlack(currentBlock);
        }
        if (nextBlock < indexCount) {
            requireZero(IndexDescriptor.primaryEntryOffset(nextBlock), IndexDescriptor.primaryEntryOffset(indexCount),
                    "unused primary index slots (from slot " + nextBlock + ", after the " + excerpts
                    + " excerpts of the cycle)");
        }
        if (found > before && !stillThere.getAsBoolean()) {
            // A live writer appended meanwhile: what it wrote is no damage.
            findings.subList(reported, findings.size()).clear();
            left = Math.max(0, before - MOST_FINDINGS);
            found = before;
        }
    }

    private void checkPrimary(int block, long expected, long sequence) {
        long held = primary(block);
        if (held == expected) {
            return;
        }
        long at = IndexDescriptor.primaryEntryOffset(block);
        if (expected == 0) {
            damage(at, "primary index entry " + block + " holds " + held + ", but no index block was written before "
                    + "excerpt " + sequence + ", which opens its block; cq repair --skip-damaged rebuilds the index");
        } else {
            damage(at, "primary index entry " + block + " holds " + held + " instead of " + expected + ", the index "
                    + "block written before excerpt " + sequence + (held == 0 ? " (lookups there scan instead)" : "")
                    + "; cq repair --skip-damaged rebuilds the index");
        }
    }

    private long primary(int block) {
        return file.mapped().longAcquireAt(IndexDescriptor.primaryEntryOffset(block));
    }

    /** An index block no primary slot names (a writer died before naming it) was left zero-filled. */
    private void requireZeroBlock(long blockPosition) {
        requireZero(blockPosition + 4, blockPosition + 4 + blockLength, "the index block at " + blockPosition
                + ", which no primary index slot names (its writer stopped before naming it)");
    }

    private void requireZeroSlack(long blockPosition) {
        long entries = IndexDescriptor.secondaryEntryPosition(blockPosition, 0);
        long slack = entries == blockPosition + 4 ? entries + (long) indexCount * Long.BYTES : blockPosition + 4;
        requireZero(slack, slack + 4, "the alignment slack of the index block at " + blockPosition);
    }

    private void requireZero(long from, long to, String what) {
        long nonZero = UnwrittenArea.firstNonZero(file, from, to);
        if (nonZero >= 0) {
            damage(nonZero, "non-zero bytes at position " + nonZero + " in " + what + ": nothing was written there, "
                    + "and an appender or a lookup past the end would take them for positions; cq repair "
                    + "--skip-damaged rebuilds the index");
        }
    }

    private void damage(long position, String description) {
        if (found < MOST_FINDINGS) {
            findings.add(new Damage(position, description));
        } else {
            left++;
        }
        found++;
    }

    /** What was found, at most {@link #MOST_FINDINGS}. */
    List<Damage> findings() {
        return findings;
    }

    /** Findings not reported, beyond {@link #MOST_FINDINGS}. */
    int left() {
        return left;
    }
}
