package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;

/**
 * A tailer's verdicts on what it finds where an excerpt should be: a wait for the writer, or damage that must not
 * pass for the end of the queue (docs/file-format.md, "Reading"). Slow paths only, loaded when first needed.
 */
final class ReadDamage {
    private ReadDamage() {
    }

    /**
     * A free mark that counts other excerpts before it than this tailer found on its way here: a damaged record length
     * merged records or skipped some. The word is read once more first: a writer may have published here meanwhile.
     */
    static boolean requireTheFreeMarkCounts(CycleFile file, MemorySegment chunk, long chunkStart, long position,
                                            long sequence, int header) {
        if (Memory.getIntAcquire(chunk, position - chunkStart) != header) {
            return true;
        }
        throw new CorruptQueueException(file.path(), position, "the records end here after " + sequence
                + " excerpts, but the writer's free mark here counts " + ExcerptHeaderDescriptor.length(header)
                + " (modulo 2^29): a damaged record length hid or merged some of them (cq verify reports the "
                + "damaged range)");
    }

    /**
     * At the end of a cycle's records: the cycle's sequence hint counts the excerpts its writers published (it may
     * lag behind them, never lead), so finding fewer means records were merged or skipped by a damaged length. The
     * header is read once more first: a writer that published here meanwhile moved the hint on after it.
     */
    static void requireAllExcerptsFound(CycleFile file, MemorySegment chunk, long chunkStart, long position,
                                        long sequence, int header) {
        long published = file.sequenceHint();
        if (sequence >= published || Memory.getIntAcquire(chunk, position - chunkStart) != header) {
            return;
        }
        throw new CorruptQueueException(file.path(), position, "the records end here after " + sequence
                + " excerpts, but " + published + " were written to this cycle: a damaged record length hid some of "
                + "them (cq verify reports the damaged range)");
    }

    /**
     * Whether the position lies beyond where records were written: past the write position hint by more than the
     * one record the hint may lag behind (its writer publishes a record, then moves the hint past it). Only a
     * damaged length leads there.
     */
    static boolean pastWhatWasWritten(CycleFile file, long position, long written) {
        if (position <= written) {
            return false;
        }
        int last = file.headerAt(written);
        boolean record = ExcerptHeaderDescriptor.isData(last)
                || (ExcerptHeaderDescriptor.isMeta(last) && !ExcerptHeaderDescriptor.isEndOfCycle(last));
        return !record || ExcerptHeaderDescriptor.next(written, ExcerptHeaderDescriptor.length(last)) != position;
    }

    /** The file is shorter than where its records were written. */
    static CorruptQueueException cutShort(CycleFile file, long length, long written, long position) {
        return new CorruptQueueException(file.path(), length, "the file ends at " + length + " bytes but records "
                + "were written up to position " + written + ": it was cut short; the excerpts after position "
                + position + " are lost (cq verify reports the damaged range)");
    }

    /** The records lead past the end of a finished cycle's file, or past where records were written. */
    static CorruptQueueException pastTheEnd(CycleFile file, long position, boolean finished, long written) {
        return new CorruptQueueException(file.path(), position, "the records lead to position " + position
                + ", past the end of the file (" + file.mapped().size() + " bytes)" + (finished
                ? " of a finished cycle" : " and past where records were written (" + written + ")")
                + ": a damaged record length; the excerpts after it cannot be read (cq verify reports the "
                + "damaged range)");
    }

    /** A free or unfinished header where records were written, or in a finished cycle. */
    static CorruptQueueException unreadable(CycleFile file, long position, boolean newerCycle, long written,
                                            int again) {
        return new CorruptQueueException(file.path(), position, newerCycle
                ? "expected a record or the end-of-cycle mark (a newer cycle exists, so this one is finished), found "
                        + ExcerptHeaderDescriptor.describe(again) + "; the excerpts after it cannot be read (cq verify "
                        + "reports the damaged range)"
                : "expected a record header (records were written up to position " + written + "), found "
                        + ExcerptHeaderDescriptor.describe(again) + "; the excerpts after it cannot be read (cq verify "
                        + "reports the damaged range)");
    }
}
