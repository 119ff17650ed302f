package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTooLargeException;
import io.cq.core.MappedQueue;
import io.cq.core.QueueException;
import io.cq.core.WriteContext;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFileMarks;
import io.cq.core.internal.index.CycleIndex;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.memory.ComposeBuffer;
import io.cq.core.internal.memory.ExcerptReservation;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.memory.Utf8;
import io.cq.core.internal.system.Failures;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The appender: takes the write lock, writes one record at the end of the current cycle file and publishes
 * it with a release store of its header (docs/file-format.md, "Appending"). The common case is
 * {@link #writingDocument()} and {@link AppendContext#close()}; rolling, index blocks and recovery of stale hints
 * are separate slow-path methods.
 */
public final class StoreAppender implements ExcerptAppender {
    private final QueueContext queue;
    private final WriteLock lock;
    private final SegmentCursor cursor = new SegmentCursor();
    private final AppendContext context = new AppendContext();
    private final Position scratch = new Position();
    /** Files retention deleted under the write lock, to log and announce once it is released. */
    private final List<Retention.Deletion> retired = new ArrayList<>();
    /** Whether a context that finds the lock taken is written into {@link #buffer} first (docs/user-guide.md). */
    private final boolean doubleBuffer;
    /**
     * A double-buffered appender's own buffer, for the largest excerpt of the queue's block size; made the first time
     * it is needed, so that its classes are not loaded on the path to a first excerpt.
     */
    private ComposeBuffer buffer;

    private static final long NO_STAMP = Long.MIN_VALUE;
    /** The time an excerpt is appended at, when a drainer gives it; else the clock's. */
    private long stampMillis = NO_STAMP;

    private CycleFile file;
    private long cycle = Long.MIN_VALUE;
    private long cycleEndMillis = Long.MIN_VALUE;
    /** Appends left before this appender reads the clock again while its cycle is vouched for (CycleClock). */
    private int appendsUntilClockRead;
    /** Appends that read the clock before this appender starts the queue's CycleClock check (then negative). */
    private int appendsUntilWatching = CycleClock.APPENDS_BEFORE_WATCHING;

    private MemorySegment chunk;
    private long chunkStart;
    private long chunkEnd = Long.MIN_VALUE;
    private long position;
    private long sequence;
    private long lastIndexAppended = -1;
    /**
     * Where this appender's last excerpt ended, in which file, and the write generation its hold left: while the
     * table store's generation is still that one, nobody has written since, and the free mark is there unread.
     * {@code trustedFile} is null until an excerpt is published whole, and from the start of every record until then.
     */
    private long trustedNext = -1;
    private long trustedSequence = -1;
    private CycleFile trustedFile;
    private long trustedGeneration = -1;
    private int lastLength;
    /** Volatile: another thread (the queue's close, its sweep) may close the appender while a context buffers. */
    private volatile boolean closed;
    /**
     * The table store's shrink count when this appender last looked (docs/file-format.md, "Reserving and shrinking").
     */
    private long shrinks;
    private final ReservationPacer pacer;
    /** Where the next block gets mapped ahead (half-way through the current one). */
    private long nextChunkMappedAt = Long.MAX_VALUE;
    /**
     * The position from which {@link #lookAround} is due: the nearest of the chunk's end, the next block's mapping
     * and the pacer's next look.
     */
    private long nextLookAt = Long.MIN_VALUE;
    /** Reserved beyond a record's start before its header is written: small excerpts need no more. */
    private static final long RESERVED_PER_RECORD = 64;

    public StoreAppender(QueueContext queue) {
        this.queue = queue;
        this.lock = queue.newWriteLock();
        this.pacer = new ReservationPacer(queue.tableStore());
        this.doubleBuffer = queue.queue().settings().doubleBuffer();
    }

    @Override
    public WriteContext writingDocument() {
        requireNoOpenContext();
        if (doubleBuffer && !lock.tryAcquire()) {
            // Another writer holds the lock: compose the excerpt meanwhile, copy it in under the lock on close.
            bindBuffer();
            context.open = true;
            context.rollback = false;
            context.buffered = true;
            return context;
        }
        return openInPlace(doubleBuffer);
    }

    /**
     * For an async queue's drainer: a context written in place as if at {@code millis}, the time its record was added
     * to the buffer, so that the excerpt lands in the cycle of the index the buffer gave it (docs/file-format.md,
     * "Async buffer").
     */
    WriteContext writingDocumentAt(long millis) {
        requireNoOpenContext();
        stampMillis = millis;
        try {
            return openInPlace(false);
        } finally {
            stampMillis = NO_STAMP;
        }
    }

    /** A context written in place, in the record under the write lock; {@code held}: the lock is taken already. */
    private WriteContext openInPlace(boolean held) {
        if (!held) {
            lock.acquire();
        }
        try {
            prepareRecord();
        } catch (RuntimeException | Error e) {
            lock.release();
            announceRetired();
            throw e;
        }
        context.open = true;
        context.rollback = false;
        context.buffered = false;
        return context;
    }

    private void requireNoOpenContext() {
        if (context.open) {
            throw new IllegalStateException("this appender already has an open write context: close it first");
        }
        if (closed) {
            throw Failures.closed("appender of queue " + queue.describe() + " is closed");
        }
    }

    // ---- double buffering ------------------------------------------------------------------------------

    private void bindBuffer() {
        if (buffer == null) {
            long blockSize = queue.queue().settings().blockSize();
            buffer = new ComposeBuffer(BlockDescriptor.maxExcerptSize(blockSize), blockSize);
        }
        buffer.bind(cursor);
    }

    /**
     * Takes the write lock for a buffered context and copies what it holds into a new record, from which the context
     * goes on in place. When no record could be prepared the context is closed and the lock released; when the copy
     * fails (the excerpt is larger than the file allows, the disk is full) the record is discarded on close.
     */
    private void copyBufferIn() {
        long length = cursor.position();
        // A write that failed while buffering (too large, no memory) fails the excerpt as it would in place:
        // binding the cursor to the record below forgets the failure, the flag does not.
        boolean rollback = context.rollback || cursor.failed();
        context.buffered = false;
        if (closed) {
            context.open = false;
            cursor.unbind();
            throw closedWhileComposing();
        }
        try {
            openInPlace(false);
        } catch (RuntimeException | Error e) {
            context.open = false;
            cursor.unbind();
            if (closed) {
                // Closed while this thread waited for the lock, which left it no file to write in.
                QueueException closedMeanwhile = closedWhileComposing();
                closedMeanwhile.addSuppressed(e);
                throw closedMeanwhile;
            }
            throw e;
        }
        if (closed) {
            // Closed by another thread (the queue's close) while this one waited for the lock: nothing is written.
            context.open = false;
            if (chunk != null) {
                discard();
            }
            cursor.unbind();
            lock.release();
            throw closedWhileComposing();
        }
        context.rollback = rollback;
        try {
            if (length > cursor.remaining()) {
                // This cycle's file was made with a smaller block size than the queue's settings: its limit rules.
                throw new ExcerptTooLargeException(length, cursor.remaining(), file.blockSize());
            }
            if (!rollback) {
                cursor.position(length);
                MemorySegment.copy(buffer.segment(), 0, chunk, position - chunkStart + ExcerptHeaderDescriptor.SIZE,
                        length);
            }
        } catch (RuntimeException | Error e) {
            context.rollback = true;
            throw e;
        } finally {
            releaseLargeBuffer();
        }
    }

    private void releaseLargeBuffer() {
        buffer.releaseIfLarge();
    }

    /** A {@link io.cq.core.QueueClosedException}. */
    private QueueException closedWhileComposing() {
        return Failures.closed("appender of queue " + queue.describe() + " was closed while its excerpt was "
                + "being composed in its buffer; nothing was published");
    }

    private void prepareRecord() {
        long now;
        if (stampMillis != NO_STAMP) {
            now = stampMillis;
        } else if (queue.cycleClock().vouchedCycle() != cycle) {
            now = queue.clock().millis();
            if (--appendsUntilWatching == 0) {
                queue.cycleClock().watch();
            }
        } else if (--appendsUntilClockRead < 0) {
            now = queue.clock().millis();
            appendsUntilClockRead = CycleClock.APPENDS_PER_READ;
        } else {
            // Far from the end of this appender's cycle (CycleClock): the clock need not be read.
            now = Long.MIN_VALUE;
        }
        if (now >= cycleEndMillis || queue.tableStore().maxCycle() != cycle) {
            roll(now == Long.MIN_VALUE ? queue.clock().millis() : now);
        }
        final CycleFile f = file;
        long shrunk = queue.tableStore().shrinks();
        if (shrunk != shrinks) {
            // Another process's last writer shrank files since: what this process reserved in them may be gone.
            shrinks = shrunk;
            queue.files().forgetReservations();
        }
        long p = f.writePositionHint();
        long s = f.sequenceHint();
        if (p < chunkStart || p >= nextLookAt) {
            lookAround(f, p);
        }
        // Where this appender's own last excerpt ended, with nobody holding the lock since, the free mark is there:
        // it is not read. Reading it would fetch the line a tailer polls before writing it, which costs a transfer
        // between cores more than writing it does (docs/file-format.md, "Appending").
        boolean trusted = p == trustedNext && s == trustedSequence && f == trustedFile
                && lock.foundGeneration() == trustedGeneration;
        trustedFile = null;
        if (!trusted) {
            int word = Memory.getIntAcquire(chunk, p - chunkStart);
            if (word != ExcerptHeaderDescriptor.free(s) && word != ExcerptHeaderDescriptor.EMPTY) {
                p = catchUpWithStaleHints(p, s);
                s = scratch.sequence();
            }
        }
        if (f.index().isIndexed(s)) {
            p = writeIndexBlockIfNeeded(p, s);
        }
        if (s > queue.rollCycle().maxSequenceNumber()) {
            throw new QueueException("cycle " + cycle + " of queue " + queue.describe() + " holds its maximum of "
                    + (s) + " excerpts; use a roll cycle with more sequence bits (e.g. LARGE_"
                    + "DAILY) or a shorter one");
        }
        position = p;
        sequence = s;
        long reserved = f.mapped().reservedEnd();
        if (p + RESERVED_PER_RECORD > reserved) {
            reserved = f.mapped().blocks().reserve(p, p + RESERVED_PER_RECORD);
        }
        long offset = p - chunkStart;
        // Marks the record as in progress; readers treat it like free space until the header is published.
        Memory.putInt(chunk, offset, ExcerptHeaderDescriptor.WORKING);
        cursor.bindForWrite(chunk, offset + ExcerptHeaderDescriptor.SIZE, f.maxExcerptSize(), f.blockSize(),
                p + ExcerptHeaderDescriptor.SIZE, reserved, context);
    }

    private void publish() {
        final long p = position;
        final long offset = p - chunkStart;
        final int length = (int) cursor.position();
        final long next = ExcerptHeaderDescriptor.next(p, length);
        final long s = sequence;
        // The word after the record must read as free before the record becomes visible: readers step onto it.
        Memory.putInt(chunk, next - chunkStart, ExcerptHeaderDescriptor.free(s + 1));
        // Publishes the excerpt: everything written above happens-before a reader's acquire of this header.
        Memory.putIntRelease(chunk, offset, ExcerptHeaderDescriptor.data(length));
        if (file.index().isIndexed(s)) {
            file.index().publishEntry(s, p);
        }
        file.updateHints(next, s + 1);
        lastIndexAppended = queue.rollCycle().toIndex(cycle, s);
        lastLength = length;
        queue.appended().recordUnderWriteLock(length);
        // Published whole: the next record of this appender goes right after, unless someone takes the lock first.
        trustedNext = next;
        trustedSequence = s + 1;
        trustedFile = file;
        trustedGeneration = lock.foundGeneration() + 1;
    }

    /**
     * What an appender does a block, a step or an eighth of a step apart, behind one comparison per append: moves to
     * the chunk that holds {@code p}; half-way through a block, maps the next one (mapping lengthens the file, which
     * only the write-lock holder may do, docs/file-format.md, so it is done here, early, rather than when the
     * appender arrives there); and lets the pacer look at the pace.
     *
     * <p>A method of its own, reached every few thousand appends at most: the JIT compiles the append around a call
     * it has seen taken, rather than around branches it has never seen taken. Those it compiles as traps, and the
     * first one taken (the first block mapped ahead, 32 MiB into a file) threw the whole compiled append away and
     * compiled it again, tens of milliseconds of a core, in the middle of a steady stream (docs/performance.md).
     */
    private void lookAround(CycleFile f, long p) {
        if (p < chunkStart || p >= chunkEnd) {
            mapChunkFor(p);
        }
        if (p >= nextChunkMappedAt) {
            nextChunkMappedAt = Long.MAX_VALUE;
            f.mapped().chunk(f.mapped().chunkIndex(chunkStart) + 1);
        }
        long reserved = f.mapped().reservedEnd();
        // An appender about to reserve itself (prepareRecord, next) is looked at on its next append.
        if (p >= pacer.nextCheck && p + RESERVED_PER_RECORD <= reserved) {
            pacer.consider(f, p, reserved);
        }
        nextLookAt = Math.min(Math.min(pacer.nextCheck, nextChunkMappedAt), chunkEnd);
    }

    /** More blocks for an excerpt that outgrows what was reserved when it started: from its record on. */
    private long reserveForCursor(long end) {
        return file.mapped().blocks().reserve(position, end);
    }

    /** Durability.SYNC: the excerpt's pages reach storage before the append returns (outside the lock). */
    private void forceLastExcerpt() {
        file.mapped().force(position, ExcerptHeaderDescriptor.SIZE + lastLength);
    }

    /**
     * Frees the record (its header word becomes the free mark again, counting the same excerpts) and zeros what the
     * excerpt wrote: past the last record's free mark every byte must be zero (what {@code verify} checks).
     */
    private void discard() {
        long written = cursor.writtenExtent();
        if (written > 0) {
            chunk.asSlice(position - chunkStart + ExcerptHeaderDescriptor.SIZE, written).fill((byte) 0);
        }
        Memory.putIntRelease(chunk, position - chunkStart, ExcerptHeaderDescriptor.free(sequence));
    }

    // ---- slow paths -------------------------------------------------------------------------------------

    /**
     * The lock was taken over while the excerpt was open: the thread that opened it ended, so it was taken for dead
     * and its record repaired by the new holder. Nothing may be written or published any more.
     */
    private void abandonTakenOver() {
        cursor.unbind();
        lock.release();
        throw new QueueException("the write lock of queue " + queue.describe() + " was taken over from this "
                + "appender while its excerpt was open (the thread that opened it ended, so it was taken for dead): "
                + "the excerpt was discarded; a write context belongs to the thread that opened it");
    }

    private void mapChunkFor(long p) {
        int index = file.mapped().chunkIndex(p);
        chunk = file.mapped().chunk(index);
        chunkStart = file.mapped().chunkStart(index);
        chunkEnd = chunkStart + file.blockSize();
        nextChunkMappedAt = chunkStart + file.blockSize() / 2;
        nextLookAt = Long.MIN_VALUE;
        // Mapping a whole chunk makes the file that long: done here, under the write lock, because only the lock
        // holder changes a file's length (docs/file-format.md, "Reserving and shrinking"). Once a block.
    }

    /**
     * The hints trail the records only when a holder of the lock stopped between publishing a record and
     * updating them; walk to the real end.
     */
    private long catchUpWithStaleHints(long p, long s) {
        scratch.set(p, s);
        file.locate(Long.MAX_VALUE, scratch);
        long end = scratch.position();
        int header = file.headerAt(end);
        if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
            throw new QueueException("cannot append to " + file.path() + ": the cycle is already finished at position "
                    + end + " although the clock and the table store still name it current");
        }
        CycleFileMarks.discardUnfinished(file, end, header);
        mapChunkFor(end);
        return end;
    }

    /** Writes the secondary index block that will hold this excerpt's entry, when it does not exist yet. */
    private long writeIndexBlockIfNeeded(long p, long s) {
        final CycleFile f = file;
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
        f.mapped().blocks().reserve(p, ExcerptHeaderDescriptor.next(p, length) + RESERVED_PER_RECORD);
        long offset = p - chunkStart;
        Memory.putInt(chunk, offset, ExcerptHeaderDescriptor.WORKING);
        chunk.asSlice(offset + ExcerptHeaderDescriptor.SIZE, length).fill((byte) 0);
        long next = ExcerptHeaderDescriptor.next(p, length);
        Memory.putInt(chunk, next - chunkStart, ExcerptHeaderDescriptor.free(s));
        Memory.putIntRelease(chunk, offset, ExcerptHeaderDescriptor.meta(length));
        index.publishPrimaryEntry(block, p);
        f.updateHints(next, s);
        if (next >= chunkEnd) {
            mapChunkFor(next);
        }
        return next;
    }

    /**
     * Moves to the cycle the clock gives, or to a later one another appender has started; creates its file,
     * then marks the previous newest cycle finished and publishes the new one (docs/file-format.md, "Rolling").
     */
    private void roll(long now) {
        long target = Math.max(queue.calendar().cycleAt(now), queue.tableStore().maxCycle());
        if (target > queue.rollCycle().lastCycle() || target < 0) {
            throw new QueueException("the clock (" + Instant.ofEpochMilli(now) + ") is outside what "
                    + queue.rollCycle() + " can index (cycles 0 to " + queue.rollCycle().lastCycle() + ", up to "
                    + Instant.ofEpochMilli(queue.calendar().cycleStartMillis(queue.rollCycle().lastCycle()))
                    + "); nothing was written");
        }
        if (target != cycle || file == null) {
            queue.tableStore().requireStillInPlace();
            if (file != null) {
                // Nothing more is written to the file being left, though it counts as written until the next is
                // published: reservations ahead in it (queued on the background thread, or a pretoucher's) would
                // only take room, on a full disk the room retention makes for the next file.
                file.mapped().blocks().stopReservingAhead();
            }
            CycleFile next = acquireOrCreateMakingRoom(target, now);
            try {
                // Before anything maps (and so lengthens) the file: a file cut short is refused, not padded.
                next.checkTailForAppending();
                long previousNewest = queue.tableStore().maxCycle();
                List<Path> finished = previousNewest < target
                        ? CycleFileMarks.finishBefore(queue.files(), previousNewest, target) : List.of();
                queue.tableStore().publishCycle(target);
                if (!finished.isEmpty()) {
                    // Not on a new queue's first roll, which finishes nothing: that loads nothing for it.
                    UnusedIndexRelease.submit(queue, finished);
                }
                retired.addAll(queue.retention().apply(queue.files(), queue.tableStore(), queue.namedTailers(),
                        target, now));
            } catch (RuntimeException | Error e) {
                queue.files().release(next);
                throw e;
            }
            queue.files().release(file);
            file = next;
            cycle = target;
            pacer.enteredNewFile();
            chunk = null;
            chunkStart = 0;
            chunkEnd = Long.MIN_VALUE;
            nextLookAt = Long.MIN_VALUE;
        }
        cycleEndMillis = queue.calendar().cycleStartMillis(cycle + 1);
    }

    /**
     * Creates the new cycle's file; on a full disk, first lets retention delete what it would delete at this roll
     * anyway, which may make the room, and tries once more.
     */
    private CycleFile acquireOrCreateMakingRoom(long target, long now) {
        try {
            return queue.files().acquireOrCreate(target, now);
        } catch (UncheckedIOException e) {
            List<Retention.Deletion> freed = queue.retention().apply(queue.files(), queue.tableStore(),
                    queue.namedTailers(), target, now);
            retired.addAll(freed);
            if (freed.stream().noneMatch(deletion -> deletion.failure() == null)) {
                throw e;
            }
            return queue.files().acquireOrCreate(target, now);
        }
    }

    /** After the write lock is released: what retention deleted during a roll is logged and told. */
    private void announceRetired() {
        if (!retired.isEmpty()) {
            List<Retention.Deletion> done = List.copyOf(retired);
            retired.clear();
            queue.retention().announce(done);
        }
    }

    // ---- conveniences -----------------------------------------------------------------------------------

    @Override
    public long writeText(CharSequence text) {
        long length = Utf8.encodedLength(text);
        requireNoOpenContext();
        // In place even when double-buffered: the text is encoded straight into the record, and a copy of a ready
        // payload gains nothing from a buffer.
        try (WriteContext dc = openInPlace(false)) {
            try {
                if (length > cursor.remaining()) {
                    throw new ExcerptTooLargeException(length, cursor.remaining(), file.blockSize());
                }
                cursor.ensureWritable(length);
                long start = position - chunkStart + ExcerptHeaderDescriptor.SIZE;
                Utf8.encode(text, chunk, start, start + length);
                cursor.position(length);
            } catch (RuntimeException | Error e) {
                // Whatever failed part-way (a full disk, a text changed under us), nothing is published.
                dc.rollbackOnClose();
                throw e;
            }
        }
        return lastIndexAppended;
    }

    @Override
    public long writeBytes(byte[] bytes) {
        requireNoOpenContext();
        try (WriteContext dc = openInPlace(false)) {
            try {
                dc.bytes().writeBytes(bytes);
            } catch (RuntimeException | Error e) {
                dc.rollbackOnClose();
                throw e;
            }
        }
        return lastIndexAppended;
    }

    @Override
    public long lastIndexAppended() {
        return lastIndexAppended;
    }

    @Override
    public MappedQueue queue() {
        return queue.queue();
    }

    /**
     * Synchronized: besides its owner, the queue's close and its sweep of ended threads' appenders may close it, and
     * a file must be released once.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (context.open) {
            if (context.buffered) {
                // Nothing was written to the queue yet: the buffered excerpt is dropped, and its owner's close says so.
                context.open = false;
                context.buffered = false;
                context.droppedByClose = true;
                cursor.unbind();
            } else if (lock.isHeld()) {
                context.rollbackOnClose();
                context.close();
            } else {
                // Closed for a thread that ended mid-excerpt, after another appender took its lock over and is
                // repairing what it left: nothing here may be touched any more.
                context.open = false;
                cursor.unbind();
            }
        }
        closed = true;
        lock.close();
        queue.files().release(file);
        file = null;
        chunk = null;
        queue.resources().remove(this);
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * The one write context of this appender, and its cursor's way to reserve further blocks: one class for both, and
     * not a method reference (each class is about 0.15 ms of a new process's way to its first excerpt, and the first
     * method reference of a JVM generates code).
     */
    private final class AppendContext implements WriteContext, ExcerptReservation {
        boolean open;
        boolean rollback;
        /** Written into the appender's buffer, without the lock, until {@link #close()} or {@link #index()}. */
        boolean buffered;
        /** The appender was closed (by another thread) while this context was buffering: its excerpt is lost. */
        boolean droppedByClose;

        @Override
        public ExcerptBytes bytes() {
            return cursor;
        }

        @Override
        public long reserveUpTo(long end) {
            return reserveForCursor(end);
        }

        /** Known only under the lock: a buffered context takes it here and goes on in place. */
        @Override
        public long index() {
            if (buffered) {
                copyBufferIn();
            }
            return queue.rollCycle().toIndex(cycle, sequence);
        }

        @Override
        public void rollbackOnClose() {
            rollback = true;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            if (!open) {
                if (droppedByClose) {
                    droppedByClose = false;
                    throw closedWhileComposing();
                }
                return;
            }
            if (buffered) {
                if (rollback || cursor.failed()) {
                    open = false;
                    buffered = false;
                    cursor.unbind();
                    releaseLargeBuffer();
                    return;
                }
                try {
                    copyBufferIn();
                } catch (RuntimeException | Error e) {
                    if (open) {
                        close();
                    }
                    throw e;
                }
            }
            open = false;
            if (!lock.isHeld()) {
                abandonTakenOver();
            }
            boolean published = false;
            try {
                if (rollback || cursor.failed()) {
                    discard();
                } else {
                    publish();
                    published = true;
                }
            } finally {
                cursor.unbind();
                lock.release();
                announceRetired();
            }
            if (published && queue.syncEachAppend()) {
                forceLastExcerpt();
            }
        }
    }
}
