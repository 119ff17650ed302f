package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.ReadContext;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;

/**
 * A tailer's verdicts on what it finds where an excerpt should be: a wait for the writer, or damage that must not
 * pass for the end of the queue (docs/file-format.md, "Reading"). Slow paths only, loaded when first needed.
 */
final class ReadDamage {
    private static final long NO_CYCLE = TableStore.NO_CYCLE;

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

    /**
     * The file does not reach the position (yet). Normal at the end of the newest cycle, whose writer lengthens the
     * file before writing further. But no record lies beyond a finished cycle's file, nor further past the write
     * position hint than one record (the hint may lag by the record its writer published last): a position there
     * was reached through a damaged length, and stopping would pass for the end of the queue.
     *
     * @return null where the file reaches the position once the hint and the newest cycle are read: its length was
     *         read before them, and meanwhile its writer may have lengthened it, written the cycle to its end, cut
     *         it after its mark and started the next (a reader that lost its core for that long)
     */
    static ReadContext beyondTheFile(StoreTailer t) {
        long written = t.file.writePositionHint();
        boolean finished = t.queue.files().nextCycle(t.cycle) != NO_CYCLE;
        // A writer lengthens its file before it publishes a record there, and a newer cycle only after this one's
        // last record and mark: read after both, the length covers what they vouch for.
        long length = t.file.mapped().size();
        if (length >= t.position + ExcerptHeaderDescriptor.SIZE && TailerChunks.mapChunkFor(t, t.position)) {
            return null;
        }
        if (written > length) {
            // A writer lengthens its file before it writes there, and a closing one cuts it after its records.
            throw cutShort(t.file, length, written, t.position);
        }
        if (finished || pastWhatWasWritten(t.file, t.position, written)) {
            throw pastTheEnd(t.file, t.position, finished, written);
        }
        return t.absent();
    }

    /**
     * Nothing readable at the position: either nothing is written there yet (wait), or it was and is gone (damage,
     * which must not pass for an end: every excerpt after it would silently never be read). The write position hint
     * is stored with release semantics after the record it passes is published, and a newer cycle is published only
     * after this one got its end mark; so once either says there is more than this position, a second acquire read
     * of the header sees what was written, and finding it still free or unfinished is damage.
     */
    static boolean awaitOrReport(StoreTailer t, int header) {
        long written = t.file.writePositionHint();
        boolean newerCycle = written <= t.position && t.queue.files().nextCycle(t.cycle) != NO_CYCLE;
        if (written <= t.position && !newerCycle && !pastWhatWasWritten(t.file, t.position, written)) {
            requireAllExcerptsFound(t.file, t.chunk, t.chunkStart, t.position, t.sequence, header);
            return false;
        }
        int again = Memory.getIntAcquire(t.chunk, t.position - t.chunkStart);
        if (again != header && again != ExcerptHeaderDescriptor.EMPTY && !ExcerptHeaderDescriptor.isWorking(again)) {
            return ExcerptHeaderDescriptor.isEndOfCycle(again) ? TailerSeek.moveToNextCycle(t) : true;
        }
        // A live writer's record in progress is never below the hint (the hint passes a record only once it is
        // published), nor in a finished cycle: an unfinished or free header there is damage too.
        throw unreadable(t.file, t.position, newerCycle, written, again);
    }
}
