package io.cq.core.internal.queue;

import io.cq.core.ExcerptTooLargeException;
import io.cq.core.QueueException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFileMarks;
import io.cq.core.internal.index.CycleIndex;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;

/**
 * Where an appender's next record goes, off the common path of {@link StoreAppender#prepareRecord}: rolling to the
 * cycle the clock gives, mapping the chunk that holds the position (and the next one ahead), catching up with stale
 * hints, writing a secondary index block before the excerpt it will index, and freeing a record unwritten. Works on
 * the appender's package-private fields, which stay in the appender whose hot methods read them.
 */
final class RecordPlacement {
    private RecordPlacement() {
    }

    /**
     * What an appender does a block, a step or an eighth of a step apart, behind one comparison per append: moves to
     * the chunk that holds {@code p}; faults in its next pages where the background has not
     * ({@link ReservationPacer#faultIn}); half-way through a block, maps the next one (mapping lengthens the file,
     * which only the write-lock holder may do, docs/file-format.md, so it is done here, early, rather than when the
     * appender arrives there); and lets the pacer look at the pace.
     *
     * <p>A method of its own, reached every few thousand appends at most: the JIT compiles the append around a call
     * it has seen taken, rather than around branches it has never seen taken. Those it compiles as traps, and the
     * first one taken (the first block mapped ahead, 32 MiB into a file) threw the whole compiled append away and
     * compiled it again, tens of milliseconds of a core, in the middle of a steady stream (docs/performance.md).
     */
    static void lookAround(StoreAppender a, CycleFile f, long p) {
        if (p < a.chunkStart || p >= a.chunkEnd) {
            mapChunkFor(a, p);
        }
        if (p >= a.nextChunkMappedAt) {
            a.nextChunkMappedAt = Long.MAX_VALUE;
            f.mapped().chunk(f.mapped().chunkIndex(a.chunkStart) + 1);
        }
        long reserved = f.mapped().reservedEnd();
        // An appender about to reserve itself (prepareRecord, next) is looked at on its next append.
        if (p >= a.pacer.nextCheck && p + StoreAppender.RESERVED_PER_RECORD <= reserved) {
            a.pacer.consider(f, p, reserved);
        }
        if (p >= a.pacer.faultedTo) {
            a.pacer.faultIn(f, a.chunk, a.chunkStart, a.chunkEnd, p);
        }
        a.nextLookAt = Math.min(Math.min(Math.min(a.pacer.nextCheck, a.nextChunkMappedAt), a.chunkEnd),
                a.pacer.faultedTo);
    }

    /**
     * Frees the record (its header word holds the free mark again, counting the same excerpts) and zeros what the
     * excerpt wrote: past the last record's free mark every byte is zero but an open record's (what {@code verify}
     * checks).
     */
    static void discard(StoreAppender a) {
        long written = a.cursor.writtenExtent();
        if (written > 0) {
            a.chunk.asSlice(a.position - a.chunkStart + ExcerptHeaderDescriptor.SIZE, written).fill((byte) 0);
        }
        Memory.putIntRelease(a.chunk, a.position - a.chunkStart, ExcerptHeaderDescriptor.free(a.sequence));
    }

    /**
     * The lock was taken over while the excerpt was open: the thread that opened it ended, so it was taken for dead
     * and its record repaired by the new holder. Nothing may be written or published any more.
     */
    static void abandonTakenOver(StoreAppender a) {
        a.cursor.unbind();
        a.lock.release();
        throw new QueueException("the write lock of queue " + a.queue.describe() + " was taken over from this "
                + "appender while its excerpt was open (the thread that opened it ended, so it was taken for dead): "
                + "the excerpt was discarded; a write context belongs to the thread that opened it");
    }

    static void mapChunkFor(StoreAppender a, long p) {
        int index = a.file.mapped().chunkIndex(p);
        a.chunk = a.file.mapped().chunk(index);
        a.chunkStart = a.file.mapped().chunkStart(index);
        a.chunkEnd = a.chunkStart + a.file.blockSize();
        a.nextChunkMappedAt = a.chunkStart + a.file.blockSize() / 2;
        a.nextLookAt = Long.MIN_VALUE;
        // Mapping a whole chunk makes the file that long: done here, under the write lock, because only the lock
        // holder changes a file's length (docs/file-format.md, "Reserving and shrinking"). Once a block.
    }

    /**
     * The hints trail the records only when a holder of the lock stopped between publishing a record and
     * updating them; walk to the real end.
     */
    static long catchUpWithStaleHints(StoreAppender a, long p, long s) {
        a.scratch.set(p, s);
        a.file.locate(Long.MAX_VALUE, a.scratch);
        long end = a.scratch.position();
        int header = a.file.headerAt(end);
        if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
            throw new QueueException("cannot append to " + a.file.path() + ": the cycle is already finished at "
                    + "position " + end + " although the clock and the table store still name it current");
        }
        CycleFileMarks.discardUnfinished(a.file, end, header);
        mapChunkFor(a, end);
        return end;
    }

    /** Writes the secondary index block that will hold this excerpt's entry, when it does not exist yet. */
    static long writeIndexBlockIfNeeded(StoreAppender a, long p, long s) {
        final CycleFile f = a.file;
        final CycleIndex index = f.index();
        long entry = s / index.indexSpacing();
        if (entry >= index.capacity()) {
            return p;
        }
        int block = (int) (entry / index.indexCount());
        if (index.primaryEntryBefore(block, p) != 0) {
            return p;
        }
        int length = IndexDescriptor.indexBlockLength(index.indexCount());
        f.mapped().blocks().reserve(p, ExcerptHeaderDescriptor.next(p, length) + StoreAppender.RESERVED_PER_RECORD);
        long offset = p - a.chunkStart;
        f.markOpen(p);
        a.chunk.asSlice(offset + ExcerptHeaderDescriptor.SIZE, length).fill((byte) 0);
        long next = ExcerptHeaderDescriptor.next(p, length);
        Memory.putInt(a.chunk, next - a.chunkStart, ExcerptHeaderDescriptor.free(s));
        Memory.putIntRelease(a.chunk, offset, ExcerptHeaderDescriptor.meta(length));
        index.publishPrimaryEntry(block, p);
        f.updateHints(next, s);
        if (next >= a.chunkEnd) {
            mapChunkFor(a, next);
        }
        return next;
    }

    /** Moves to the cycle the clock gives, or to a later one another appender has started (CycleRoller). */
    static void roll(StoreAppender a, long now) {
        long target = a.roller.targetCycle(now);
        if (target != a.cycle || a.file == null) {
            CycleFile next = a.roller.enter(a.file, target, now);
            a.queue.files().release(a.file);
            a.file = next;
            a.cycle = target;
            a.pacer.enteredNewFile();
            a.chunk = null;
            a.chunkStart = 0;
            a.chunkEnd = Long.MIN_VALUE;
            a.nextLookAt = Long.MIN_VALUE;
        }
        a.cycleEndMillis = a.queue.calendar().cycleStartMillis(a.cycle + 1);
    }

    /**
     * Copies an excerpt composed elsewhere into the open record, unless it is to be rolled back; either way it must
     * fit: this cycle's file may have been made with a smaller block size than the queue's settings, and its limit
     * rules.
     */
    static void copyComposed(StoreAppender a, MemorySegment composed, long length, boolean rollback) {
        if (length > a.cursor.remaining()) {
            throw new ExcerptTooLargeException(length, a.cursor.remaining(), a.file.blockSize());
        }
        if (!rollback) {
            a.cursor.position(length);
            MemorySegment.copy(composed, 0, a.chunk, a.position - a.chunkStart + ExcerptHeaderDescriptor.SIZE, length);
        }
    }
}
