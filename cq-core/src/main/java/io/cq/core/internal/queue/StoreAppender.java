package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.QueueException;
import io.cq.core.WriteContext;
import io.cq.core.internal.codec.Crc32cTrailer;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.memory.Utf8;
import io.cq.core.internal.system.Failures;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The appender: takes the write lock, writes one record at the end of the current cycle file and publishes
 * it with a release store of its header (docs/file-format.md, "Appending"). The common case is
 * {@link #writingDocument()} and {@link AppendContext#close()}; rolling, index blocks and recovery of stale hints
 * are separate slow-path methods.
 */
public final class StoreAppender implements ExcerptAppender {
    final QueueContext queue;
    final WriteLock lock;
    final SegmentCursor cursor = new SegmentCursor();
    private final AppendContext context = new AppendContext(this);
    final Position scratch = new Position();
    /** Files retention deleted under the write lock, to log and announce once it is released. */
    private final List<Retention.Deletion> retired = new ArrayList<>();
    final CycleRoller roller;
    /** A checksum-only queue's CRC-32C after each excerpt, added as it is published; null for every other queue. */
    private final Crc32cTrailer checksum;

    private static final long NO_STAMP = Long.MIN_VALUE;
    /** The time an excerpt is appended at, when a drainer gives it; else the clock's. */
    private long stampMillis = NO_STAMP;

    CycleFile file;
    long cycle = Long.MIN_VALUE;
    long cycleEndMillis = Long.MIN_VALUE;
    /** Appends left before this appender reads the clock again while its cycle is vouched for (CycleClock). */
    private int appendsUntilClockRead;
    /** Appends that read the clock before this appender starts the queue's CycleClock check (then negative). */
    private int appendsUntilWatching = CycleClock.APPENDS_BEFORE_WATCHING;

    MemorySegment chunk;
    long chunkStart;
    long chunkEnd = Long.MIN_VALUE;
    long position;
    long sequence;
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
    final ReservationPacer pacer;
    /** Where the next block gets mapped ahead (half-way through the current one). */
    long nextChunkMappedAt = Long.MAX_VALUE;
    /**
     * The position from which {@link RecordPlacement#lookAround} is due: the nearest of the chunk's end, the next
     * block's mapping and the pacer's next look.
     */
    long nextLookAt = Long.MIN_VALUE;
    /** Reserved beyond a record's start before its header is written: small excerpts need no more. */
    static final long RESERVED_PER_RECORD = 64;

    public StoreAppender(QueueContext queue) {
        this.queue = queue;
        this.lock = queue.newWriteLock();
        this.pacer = new ReservationPacer(queue.tableStore());
        this.roller = new CycleRoller(queue, retired);
        // Only a queue with checksums loads the class (StartupClassesTest).
        checksum = queue.codecs().checksums() && Crc32cTrailer.inPlace(queue.codecs()) ? new Crc32cTrailer() : null;
    }

    /** A codec appender where excerpts are framed, else double-buffered or plain as set: chosen once, here. */
    static ExcerptAppender of(QueueContext queue) {
        if (!queue.codecs().isPlain() && !Crc32cTrailer.inPlace(queue.codecs())) {
            return new CodecAppender(queue);
        }
        return queue.queue().settings().doubleBuffer() ? new DoubleBufferedAppender(queue) : new StoreAppender(queue);
    }

    @Override
    public WriteContext writingDocument() {
        requireNoOpenContext();
        return openInPlace(false);
    }

    /**
     * For an async queue's drainer: a context written in place as if at {@code millis}, the time its record was added
     * to the buffer, so that the excerpt lands in the cycle of the index the buffer gave it (docs/file-format.md,
     * "Async buffer").
     */
    public WriteContext writingDocumentAt(long millis) {
        requireNoOpenContext();
        stampMillis = millis;
        try {
            return openInPlace(false);
        } finally {
            stampMillis = NO_STAMP;
        }
    }

    /**
     * A context written in place, in the record under the write lock; {@code held}: the lock is taken already. The
     * record's header keeps the free mark until the excerpt is published (docs/file-format.md, "Appending", step 5).
     */
    WriteContext openInPlace(boolean held) {
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
        return context;
    }

    void requireNoOpenContext() {
        if (context.open) {
            throw new IllegalStateException("this appender already has an open write context: close it first");
        }
        if (closed) {
            throw Failures.closed("appender of queue " + queue.describe() + " is closed");
        }
    }

    // ---- for the context and the double-buffered appender -------------------------------------------------

    SegmentCursor cursor() {
        return cursor;
    }

    AppendContext context() {
        return context;
    }

    WriteLock lock() {
        return lock;
    }

    /** The index of the open record's excerpt. */
    long currentIndex() {
        return queue.rollCycle().toIndex(cycle, sequence);
    }

    /** The appender was closed while the record was being opened: it is freed unwritten and the lock released. */
    void abandonOpenRecord() {
        context.open = false;
        if (chunk != null) {
            RecordPlacement.discard(this);
        }
        cursor.unbind();
        lock.release();
    }

    /** Closing the open context: publishes the record, or discards it, and releases the lock. */
    void finishRecord(boolean rollback) {
        if (!lock.isHeld()) {
            RecordPlacement.abandonTakenOver(this);
        }
        boolean published = false;
        try {
            if (rollback || cursor.failed()) {
                RecordPlacement.discard(this);
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
            RecordPlacement.roll(this, now == Long.MIN_VALUE ? queue.clock().millis() : now);
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
            RecordPlacement.lookAround(this, f, p);
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
                p = RecordPlacement.catchUpWithStaleHints(this, p, s);
                s = scratch.sequence();
            }
        }
        if (f.index().isIndexed(s)) {
            p = RecordPlacement.writeIndexBlockIfNeeded(this, p, s);
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
        // The header keeps the free mark while the payload is written: storing WORKING first would take the line a
        // tailer polls from it once more per excerpt. The open record is said on the hints' line instead, which only
        // the writer stores to (docs/file-format.md, "Appending", step 5).
        f.markOpen(p);
        cursor.bindForWrite(chunk, offset + ExcerptHeaderDescriptor.SIZE, f.maxExcerptSize()
                - (checksum == null ? 0 : Crc32cTrailer.LENGTH), f.blockSize(),
                p + ExcerptHeaderDescriptor.SIZE, reserved, context);
    }

    private void publish() {
        final long p = position;
        final long offset = p - chunkStart;
        final int length = checksum == null ? (int) cursor.position() : withChecksum();
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

    /** A checksum-only queue: room for the CRC-32C and the free mark after it, then the checksum itself. */
    private int withChecksum() {
        int length = (int) cursor.position();
        long end = ExcerptHeaderDescriptor.next(position, length + Crc32cTrailer.LENGTH) + ExcerptHeaderDescriptor.SIZE;
        if (end > file.mapped().reservedEnd()) {
            file.mapped().blocks().reserve(position, end);
        }
        return checksum.append(chunk, position - chunkStart + ExcerptHeaderDescriptor.SIZE, length, currentIndex());
    }

    /** More blocks for an excerpt that outgrows what was reserved when it started: from its record on. */
    long reserveForCursor(long end) {
        return file.mapped().blocks().reserve(position, end);
    }

    /** Durability.SYNC: the excerpt's pages reach storage before the append returns (outside the lock). */
    private void forceLastExcerpt() {
        file.mapped().force(position, ExcerptHeaderDescriptor.SIZE + lastLength);
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
        requireNoOpenContext();
        try (WriteContext dc = openInPlace(false)) {
            try {
                Utf8.writeText(cursor, text);
            } catch (RuntimeException | Error e) {
                // Whatever failed part-way (too large, a full disk, a text changed under us), nothing is published.
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
            if (lock.isHeld()) {
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

    @Override
    public boolean isClosed() {
        return closed;
    }
}
