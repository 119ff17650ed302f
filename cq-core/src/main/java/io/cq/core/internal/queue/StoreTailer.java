package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptHandler;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.TailerDirection;
import io.cq.core.internal.codec.FrameReader;
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

    final QueueContext queue;
    private final String name;
    final int slot;
    private final SegmentCursor cursor = new SegmentCursor();
    final TailContext context = new TailContext(this);
    final Position scratch = new Position();
    /** For {@link TailerSeek#lastIndexBefore}: its own, as it runs while {@code scratch} may hold a read's position. */
    final Position lookup = new Position();

    TailerDirection direction = TailerDirection.FORWARD;
    /** Without a file, the tailer waits for the first cycle at or after this one. */
    long startCycle = Long.MIN_VALUE;
    CycleFile file;
    /**
     * Whether {@code file}'s excerpts are framed (its codecs), set with it: a field of the tailer's own, because
     * following {@code file} to its codecs on every read took a tenth off 40-byte reads.
     */
    boolean framed;
    long cycle = NO_CYCLE;
    MemorySegment chunk;
    long chunkStart;
    long chunkEnd = Long.MIN_VALUE;
    long position;
    long sequence;
    int readLength;
    /** Opens framed excerpts, made when the first one is read. */
    private FrameReader frames;
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
                TailerSeek.resume(this, queue.namedTailers().nextIndex(slot));
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
        return direction == TailerDirection.FORWARD ? readForward() : TailerSeek.readBackward(this);
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
                    if (read == limit || p >= end || framed) {
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
            if (file == null && !TailerSeek.enterFirstCycle(this)) {
                return absent();
            }
            if (position >= chunkEnd && !TailerChunks.mapChunkFor(this, position)) {
                ReadContext end = ReadDamage.beyondTheFile(this);
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

    ReadContext present(int header) {
        int length = ExcerptHeaderDescriptor.length(header);
        if (length > file.maxExcerptSize()) {
            throw new CorruptQueueException(file.path(), position, "excerpt length " + length
                    + " exceeds the file's largest excerpt of " + file.maxExcerptSize() + " bytes");
        }
        readLength = length;
        long recordEnd = position + ExcerptHeaderDescriptor.SIZE + length;
        if (recordEnd - chunkStart > chunk.byteSize()) {
            TailerChunks.mapWholeRecord(this, recordEnd);
        }
        if (framed) {
            openFramed(length);
        } else {
            cursor.bindForRead(chunk, position - chunkStart + ExcerptHeaderDescriptor.SIZE, length);
        }
        context.open = true;
        context.present = true;
        context.rollback = false;
        return context;
    }

    /**
     * A framed excerpt (docs/file-format.md, "Excerpt codecs"): checked, decrypted, decompressed. A method of its own
     * so that {@link #present} stays as small as it was for plain files, which the JIT inlines into the read loop.
     */
    private void openFramed(int length) {
        if (frames == null) {
            frames = new FrameReader(queue.describe(), queue.codecs().keys());
        }
        frames.open(file.codecs(), chunk, position - chunkStart + ExcerptHeaderDescriptor.SIZE, length,
                currentIndex(), file.path(), position);
        cursor.bindForRead(frames.segment(), frames.offset(), frames.length());
    }

    ReadContext absent() {
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
                long before = TailerSeek.lastIndexBefore(this, cycle);
                if (before >= 0) {
                    persist(before);
                }
            }
        }
    }

    void persist(long nextIndex) {
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
            // (docs/file-format.md, "Reading"). A writer of this version keeps the mark here until it publishes; one
            // of an older version marks the record WORKING while it writes it: looks at that count from this one, so
            // it is checked against the hints only if it stays unfinished for 64 looks.
            if (position >= file.pageHint() && queue.tableStore().maxCycle() <= cycle) {
                quietPosition = position;
                quietCycle = cycle;
                quietLooks = DAMAGE_CHECK_EVERY;
                return false;
            }
            return ReadDamage.awaitOrReport(this, header);
        }
        if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
            ReadDamage.requireAllExcerptsFound(file, chunk, chunkStart, position, sequence, header);
            return TailerSeek.moveToNextCycle(this);
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
            return ReadDamage.awaitOrReport(this, header);
        }
        throw new CorruptQueueException(file.path(), position, "expected a record header, found "
                + ExcerptHeaderDescriptor.describe(header));
    }

    private QueueClosedException closedError() {
        return new QueueClosedException((name == null ? "tailer" : "named tailer '" + name + "'") + " of queue "
                + queue.describe() + " is closed");
    }

    void ensureOpen() {
        if (closed) {
            throw closedError();
        }
    }

    @Override
    public boolean moveTo(StartPosition start) {
        ensureOpen();
        return StartPositions.apply(this, queue.queue(), start);
    }

    @Override
    public ExcerptTailer toStart() {
        return TailerSeek.toStart(this);
    }

    @Override
    public ExcerptTailer toEnd() {
        return TailerSeek.toEnd(this);
    }

    @Override
    public boolean moveToIndex(long index) {
        return TailerSeek.moveToIndex(this, index);
    }

    @Override
    public ExcerptTailer direction(TailerDirection newDirection) {
        return TailerSeek.direction(this, newDirection);
    }

    @Override
    public TailerDirection direction() {
        return direction;
    }

    @Override
    public long index() {
        return TailerSeek.index(this);
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
