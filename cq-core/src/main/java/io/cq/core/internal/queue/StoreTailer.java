package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptHandler;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.TailerDirection;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;

/**
 * The tailer. Reading forward is one acquire load of the next record's header and, when it is published, a
 * cursor bound over its payload (docs/file-format.md, "Reading"); metadata, end-of-cycle marks, block edges
 * and cycle changes are slow-path methods. Reading backward locates each excerpt through the index.
 */
public final class StoreTailer implements ExcerptTailer {
    private static final long NO_CYCLE = TableStore.NO_CYCLE;
    /** How often a reader polling one free header checks it for damage again: every this many looks. */
    private static final int DAMAGE_CHECK_EVERY = 64;

    private final QueueContext queue;
    private final String name;
    private final int slot;
    private final SegmentCursor cursor = new SegmentCursor();
    private final TailContext context = new TailContext(this);
    private final Position scratch = new Position();
    /** For {@link #lastIndexBefore(long)}: its own, as it runs while {@code scratch} may hold a read's position. */
    private final Position lookup = new Position();

    private TailerDirection direction = TailerDirection.FORWARD;
    /** Without a file, the tailer waits for the first cycle at or after this one. */
    private long startCycle = Long.MIN_VALUE;
    private CycleFile file;
    private long cycle = NO_CYCLE;
    private MemorySegment chunk;
    private long chunkStart;
    private long chunkEnd = Long.MIN_VALUE;
    private long position;
    private long sequence;
    private int readLength;
    /** Where the reader last found a free header and checked it for damage, and looks left before it checks again. */
    private long quietPosition = -1;
    private long quietCycle = NO_CYCLE;
    private int quietLooks;
    private boolean closed;

    public StoreTailer(QueueContext queue, String name, int slot) {
        this.queue = queue;
        this.name = name;
        this.slot = slot;
        if (slot >= 0) {
            try {
                resume(queue.namedTailers().nextIndex(slot));
            } catch (RuntimeException | Error e) {
                queue.files().release(file);
                throw e;
            }
        }
    }

    @Override
    public ReadContext readingDocument() {
        if (closed) {
            throw closedError();
        }
        if (context.open) {
            throw new IllegalStateException("this tailer already has an open read context: close it first");
        }
        return direction == TailerDirection.FORWARD ? readForward() : readBackward();
    }

    /**
     * Finds each run of excerpts the way {@link #readingDocument()} does, then walks the run in the mapped chunk
     * with the chunk, position and sequence in locals: the same checks per excerpt, without starting afresh.
     */
    @Override
    public int poll(ExcerptHandler handler, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        if (closed) {
            throw closedError();
        }
        if (context.open) {
            throw new IllegalStateException("this tailer already has an open read context: close it first");
        }
        if (direction != TailerDirection.FORWARD) {
            return ExcerptTailer.super.poll(handler, limit);
        }
        int read = 0;
        try {
            while (read < limit && readForward().isPresent()) {
                MemorySegment c = chunk;
                long start = chunkStart;
                long end = chunkEnd;
                long size = c.byteSize();
                long max = file.maxExcerptSize();
                long base = queue.rollCycle().toIndex(cycle, 0);
                long p = position;
                long seq = sequence;
                int length = readLength;
                while (true) {
                    handler.onExcerpt(cursor, base | seq);
                    read++;
                    if (chunk != c || direction != TailerDirection.FORWARD) {
                        // The handler moved or closed the tailer: it stays where it was moved.
                        return read;
                    }
                    p = ExcerptHeaderDescriptor.next(p, length);
                    position = p;
                    sequence = ++seq;
                    if (slot >= 0) {
                        queue.namedTailers().storeNextIndex(slot, base | seq);
                    }
                    if (read == limit || p >= end) {
                        break;
                    }
                    int header = Memory.getIntAcquire(c, p - start);
                    length = ExcerptHeaderDescriptor.length(header);
                    if (!ExcerptHeaderDescriptor.isData(header) || length > max
                            || p + ExcerptHeaderDescriptor.SIZE + length - start > size) {
                        break;
                    }
                    readLength = length;
                    cursor.bindForRead(c, p - start + ExcerptHeaderDescriptor.SIZE, length);
                }
            }
        } finally {
            context.open = false;
            context.present = false;
        }
        return read;
    }

    private ReadContext readForward() {
        // The common case first, small enough to inline into the caller's loop: chunkEnd is Long.MIN_VALUE
        // whenever no chunk is mapped, so one comparison stands for "a file, a chunk, and the position in it".
        if (position < chunkEnd) {
            int header = Memory.getIntAcquire(chunk, position - chunkStart);
            if (ExcerptHeaderDescriptor.isData(header)) {
                return present(header);
            }
        }
        return findForward();
    }

    private ReadContext findForward() {
        while (true) {
            if (file == null && !enterFirstCycle()) {
                return absent();
            }
            if (position >= chunkEnd && !mapChunkFor(position)) {
                ReadContext end = beyondTheFile();
                if (end != null) {
                    return end;
                }
                continue; // the file reaches the position after all
            }
            int header = Memory.getIntAcquire(chunk, position - chunkStart);
            if (ExcerptHeaderDescriptor.isData(header)) {
                return present(header);
            }
            if (!stepOver(header)) {
                return absent();
            }
        }
    }

    private ReadContext present(int header) {
        int length = ExcerptHeaderDescriptor.length(header);
        if (length > file.maxExcerptSize()) {
            throw new CorruptQueueException(file.path(), position, "excerpt length " + length
                    + " exceeds the file's largest excerpt of " + file.maxExcerptSize() + " bytes");
        }
        readLength = length;
        long recordEnd = position + ExcerptHeaderDescriptor.SIZE + length;
        if (recordEnd - chunkStart > chunk.byteSize()) {
            mapWholeRecord(recordEnd);
        }
        cursor.bindForRead(chunk, position - chunkStart + ExcerptHeaderDescriptor.SIZE, length);
        context.open = true;
        context.present = true;
        context.rollback = false;
        return context;
    }

    private ReadContext absent() {
        cursor.unbind();
        context.open = true;
        context.present = false;
        return context;
    }

    SegmentCursor cursor() {
        return cursor;
    }

    /** Index of the excerpt a present read context stands on. */
    long currentIndex() {
        return queue.rollCycle().toIndex(cycle, sequence);
    }

    void commit() {
        if (direction == TailerDirection.FORWARD) {
            position = ExcerptHeaderDescriptor.next(position, readLength);
            sequence++;
            if (slot >= 0) {
                persist(queue.rollCycle().toIndex(cycle, sequence));
            }
        } else {
            sequence--;
            if (sequence >= 0) {
                persist(queue.rollCycle().toIndex(cycle, sequence));
            } else if (slot >= 0) {
                // Past the cycle's first excerpt: the next one backward is the last of an earlier cycle.
                long before = lastIndexBefore(cycle);
                if (before >= 0) {
                    persist(before);
                }
            }
        }
    }

    /**
     * The index of the last excerpt of the cycles before {@code current}, or -1 when they hold none. Read at a cycle's
     * start when going backward, not per excerpt.
     */
    private long lastIndexBefore(long current) {
        for (long previous = queue.files().previousCycle(current); previous != NO_CYCLE;
             previous = queue.files().previousCycle(previous)) {
            CycleFile candidate = queue.files().acquire(previous);
            if (candidate == null) {
                continue;
            }
            try {
                long count = candidate.excerptCount(lookup);
                if (count > 0) {
                    return queue.rollCycle().toIndex(previous, count - 1);
                }
            } finally {
                queue.files().release(candidate);
            }
        }
        return -1;
    }

    private void persist(long nextIndex) {
        if (slot >= 0) {
            queue.namedTailers().storeNextIndex(slot, nextIndex);
        }
    }

    // ---- slow paths: metadata, cycle ends, block edges --------------------------------------------------

    /** Moves past a record that is not an excerpt; false when there is nothing further to read yet. */
    private boolean stepOver(int header) {
        if (header == ExcerptHeaderDescriptor.free(sequence)) {
            // Where the writer has reached, unless this is an older copy of a page the writer has since written past,
            // or of the end of a cycle since finished. Both words checked live on cache lines written once a page and
            // once a cycle, so a reader polling here never takes the line its writer stores to on every publish
            // (docs/file-format.md, "Reading"). The writer's next record starts here as WORKING: looks at it count
            // from this one, so it is checked against the hints only if it stays unfinished for 64 looks.
            if (position >= file.pageHint() && queue.tableStore().maxCycle() <= cycle) {
                quietPosition = position;
                quietCycle = cycle;
                quietLooks = DAMAGE_CHECK_EVERY;
                return false;
            }
            return awaitOrReportDamage(header);
        }
        if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
            ReadDamage.requireAllExcerptsFound(file, chunk, chunkStart, position, sequence, header);
            return moveToNextCycle();
        }
        if (ExcerptHeaderDescriptor.isMeta(header)) {
            position = file.next(position, header);
            return true;
        }
        if (ExcerptHeaderDescriptor.isFree(header)) {
            return ReadDamage.requireTheFreeMarkCounts(file, chunk, chunkStart, position, sequence, header);
        }
        if (header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isWorking(header)) {
            // A word of 0 is free space to a writer that leaves no free mark (an older cq, or a file's first record),
            // and also what a lost page reads as; WORKING met without the free mark before it may be a damaged
            // length's landing place, or an older copy of a page. The first look at either checks for damage against
            // the hints; a reader that then polls the same position checks again every DAMAGE_CHECK_EVERY looks.
            if (position == quietPosition && cycle == quietCycle && --quietLooks > 0) {
                return false;
            }
            quietPosition = position;
            quietCycle = cycle;
            quietLooks = DAMAGE_CHECK_EVERY;
            return awaitOrReportDamage(header);
        }
        throw new CorruptQueueException(file.path(), position, "expected a record header, found "
                + ExcerptHeaderDescriptor.describe(header));
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
    private ReadContext beyondTheFile() {
        long written = file.writePositionHint();
        boolean finished = queue.files().nextCycle(cycle) != NO_CYCLE;
        // A writer lengthens its file before it publishes a record there, and a newer cycle only after this one's
        // last record and mark: read after both, the length covers what they vouch for.
        long length = file.mapped().size();
        if (length >= position + ExcerptHeaderDescriptor.SIZE && mapChunkFor(position)) {
            return null;
        }
        if (written > length) {
            // A writer lengthens its file before it writes there, and a closing one cuts it after its records.
            throw ReadDamage.cutShort(file, length, written, position);
        }
        if (finished || ReadDamage.pastWhatWasWritten(file, position, written)) {
            throw ReadDamage.pastTheEnd(file, position, finished, written);
        }
        return absent();
    }

    /**
     * Nothing readable at the position: either nothing is written there yet (wait), or it was and is gone (damage,
     * which must not pass for an end: every excerpt after it would silently never be read). The write position hint
     * is stored with release semantics after the record it passes is published, and a newer cycle is published only
     * after this one got its end mark; so once either says there is more than this position, a second acquire read
     * of the header sees what was written, and finding it still free or unfinished is damage.
     */
    private boolean awaitOrReportDamage(int header) {
        long written = file.writePositionHint();
        boolean newerCycle = written <= position && queue.files().nextCycle(cycle) != NO_CYCLE;
        if (written <= position && !newerCycle && !ReadDamage.pastWhatWasWritten(file, position, written)) {
            ReadDamage.requireAllExcerptsFound(file, chunk, chunkStart, position, sequence, header);
            return false;
        }
        int again = Memory.getIntAcquire(chunk, position - chunkStart);
        if (again != header && again != ExcerptHeaderDescriptor.EMPTY && !ExcerptHeaderDescriptor.isWorking(again)) {
            return ExcerptHeaderDescriptor.isEndOfCycle(again) ? moveToNextCycle() : true;
        }
        // A live writer's record in progress is never below the hint (the hint passes a record only once it is
        // published), nor in a finished cycle: an unfinished or free header there is damage too.
        throw ReadDamage.unreadable(file, position, newerCycle, written, again);
    }

    /**
     * Maps the chunk that holds the header word at {@code p}; false when the file does not reach it yet. A mapping
     * may end before the chunk does (a shrunk file): {@code chunkEnd} then stops where the header words it covers
     * end, and reading further maps again.
     */
    private boolean mapChunkFor(long p) {
        int index = file.mapped().chunkIndex(p);
        long start = file.mapped().chunkStart(index);
        MemorySegment mapped = file.mapped().readableChunk(index, p - start + ExcerptHeaderDescriptor.SIZE);
        if (mapped == null) {
            return false;
        }
        chunk = mapped;
        chunkStart = start;
        chunkEnd = start + Math.min(file.blockSize(), mapped.byteSize() - ExcerptHeaderDescriptor.SIZE + 1);
        return true;
    }

    /** A published record always lies in its file; only a mapping made before the file grew may end before it. */
    private void mapWholeRecord(long recordEnd) {
        MemorySegment mapped = file.mapped().readableChunk(file.mapped().chunkIndex(position), recordEnd - chunkStart);
        if (mapped == null) {
            throw new CorruptQueueException(file.path(), position, "the excerpt's " + readLength + " bytes end at "
                    + recordEnd + ", past the end of the file (" + file.mapped().size() + " bytes): it was cut short");
        }
        chunk = mapped;
        chunkEnd = chunkStart + Math.min(file.blockSize(), mapped.byteSize() - ExcerptHeaderDescriptor.SIZE + 1);
    }

    private boolean enterFirstCycle() {
        long max = queue.tableStore().maxCycle();
        if (max == NO_CYCLE || max < startCycle) {
            return false;
        }
        long first = queue.files().nextCycle(startCycle == Long.MIN_VALUE ? Long.MIN_VALUE : startCycle - 1);
        return first != NO_CYCLE && switchTo(first) && atStartOfCycle();
    }

    private boolean moveToNextCycle() {
        long next = queue.files().nextCycle(cycle);
        return next != NO_CYCLE && switchTo(next) && atStartOfCycle();
    }

    private boolean atStartOfCycle() {
        moveWithinCycle(file.dataStart(), 0);
        return true;
    }

    /** Makes {@code target} the current cycle file; false (nothing changed) when it has no file. */
    private boolean switchTo(long target) {
        if (file != null && target == cycle) {
            return true;
        }
        CycleFile next = queue.files().acquire(target);
        if (next == null) {
            return false;
        }
        queue.files().release(file);
        file = next;
        cycle = target;
        chunk = null;
        chunkStart = 0;
        chunkEnd = Long.MIN_VALUE;
        return true;
    }

    private void leaveCycles(long waitForCycle) {
        queue.files().release(file);
        file = null;
        cycle = NO_CYCLE;
        chunk = null;
        chunkEnd = Long.MIN_VALUE;
        startCycle = waitForCycle;
    }

    // ---- backward ---------------------------------------------------------------------------------------

    private ReadContext readBackward() {
        while (true) {
            if (file == null) {
                return absent();
            }
            if (sequence < 0) {
                long previous = queue.files().previousCycle(cycle);
                if (previous == NO_CYCLE || !switchTo(previous)) {
                    return absent();
                }
                sequence = file.excerptCount(scratch) - 1;
                continue;
            }
            CycleFile.Found found = file.locate(sequence, scratch);
            if (found == CycleFile.Found.EXCERPT) {
                position = scratch.position();
                if (!mapChunkFor(position)) {
                    return absent();
                }
                return present(Memory.getIntAcquire(chunk, position - chunkStart));
            }
            // Past the end: the last excerpt is the next one going backward.
            long count = scratch.sequence();
            sequence = count - 1;
            if (count == 0) {
                continue;
            }
        }
    }

    // ---- positioning ------------------------------------------------------------------------------------

    private void resume(long nextIndex) {
        if (nextIndex < 0) {
            toStart();
            return;
        }
        long target = queue.rollCycle().toCycle(nextIndex);
        long targetSequence = queue.rollCycle().toSequenceNumber(nextIndex);
        if (!switchTo(target)) {
            leaveCycles(target);
            return;
        }
        file.locate(targetSequence, scratch);
        moveWithinCycle(scratch.position(), scratch.sequence());
    }

    /** Jumps within the current file; the chunk is looked up again, since the jump may go backward. */
    private void moveWithinCycle(long newPosition, long newSequence) {
        position = newPosition;
        sequence = newSequence;
        chunk = null;
        chunkEnd = Long.MIN_VALUE;
    }

    private QueueClosedException closedError() {
        return new QueueClosedException((name == null ? "tailer" : "named tailer '" + name + "'") + " of queue "
                + queue.describe() + " is closed");
    }

    private void ensureOpen() {
        if (closed) {
            throw closedError();
        }
    }

    @Override
    public boolean moveTo(StartPosition start) {
        ensureOpen();
        return StartPositions.apply(this, queue.queue(), start);
    }

    /**
     * A move while a read context is open: the excerpt in hand is not committed when the context closes, so the
     * tailer stays where it was moved, as in {@link #poll}. Committing would step from the new place by the length of
     * the excerpt read at the old one. (A change of direction keeps the commit, which steps past the excerpt in hand
     * in the new direction.)
     */
    private void movedWhileReading() {
        if (context.open) {
            context.rollback = true;
        }
    }

    @Override
    public ExcerptTailer toStart() {
        ensureOpen();
        movedWhileReading();
        long first = queue.files().firstCycle();
        if (first == NO_CYCLE || !switchTo(first)) {
            leaveCycles(Long.MIN_VALUE);
        } else {
            atStartOfCycle();
        }
        if (direction == TailerDirection.FORWARD) {
            persist(-1);
        }
        return this;
    }

    @Override
    public ExcerptTailer toEnd() {
        ensureOpen();
        movedWhileReading();
        long last = queue.files().lastCycle();
        if (last == NO_CYCLE || !switchTo(last)) {
            leaveCycles(Long.MIN_VALUE);
            return this;
        }
        file.locateEnd(scratch);
        moveWithinCycle(scratch.position(),
                direction == TailerDirection.FORWARD ? scratch.sequence() : scratch.sequence() - 1);
        if (direction == TailerDirection.FORWARD) {
            persist(queue.rollCycle().toIndex(cycle, sequence));
        }
        return this;
    }

    @Override
    public boolean moveToIndex(long index) {
        ensureOpen();
        if (index < 0) {
            return false;
        }
        long target = queue.rollCycle().toCycle(index);
        long targetSequence = queue.rollCycle().toSequenceNumber(index);
        CycleFile candidate = target == cycle && file != null ? file : queue.files().acquire(target);
        if (candidate == null) {
            return false;
        }
        if (candidate.locate(targetSequence, scratch) != CycleFile.Found.EXCERPT) {
            if (candidate != file) {
                queue.files().release(candidate);
            }
            return false;
        }
        movedWhileReading();
        if (candidate != file) {
            queue.files().release(file);
            file = candidate;
            cycle = target;
        }
        moveWithinCycle(scratch.position(), targetSequence);
        persist(index);
        return true;
    }

    @Override
    public ExcerptTailer direction(TailerDirection newDirection) {
        ensureOpen();
        if (newDirection == TailerDirection.FORWARD && direction == TailerDirection.BACKWARD && file != null) {
            // Going backward only the sequence is kept; find the record it stands for.
            long from = Math.max(sequence, 0);
            file.locate(from, scratch);
            moveWithinCycle(scratch.position(), scratch.sequence());
        }
        this.direction = newDirection;
        return this;
    }

    @Override
    public TailerDirection direction() {
        return direction;
    }

    @Override
    public long index() {
        if (file == null) {
            long min = queue.tableStore().minCycle();
            return min == NO_CYCLE ? 0 : queue.rollCycle().toIndex(Math.max(min, startCycle), 0);
        }
        if (sequence < 0) {
            // Going backward past a cycle's first excerpt: the last excerpt of an earlier cycle is next, when there is
            // one; toIndex(cycle, 0) - 1 would name an excerpt of the previous cycle that does not exist.
            long before = lastIndexBefore(cycle);
            return before >= 0 ? before : queue.rollCycle().toIndex(cycle, 0) - 1;
        }
        return queue.rollCycle().toIndex(cycle, sequence);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long lag() {
        ensureOpen();
        long last = queue.queue().lastIndex();
        return last < 0 ? 0 : queue.queue().countExcerpts(index(), last + 1);
    }

    @Override
    public MappedQueue queue() {
        return queue.queue();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        context.open = false;
        queue.files().release(file);
        file = null;
        chunk = null;
        chunkEnd = Long.MIN_VALUE;
        if (slot >= 0) {
            queue.namedTailers().release(slot);
        }
        queue.resources().remove(this);
    }
}
