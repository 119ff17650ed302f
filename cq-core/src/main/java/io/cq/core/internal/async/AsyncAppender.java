package io.cq.core.internal.async;

import io.cq.core.AsyncBufferFullException;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.QueueException;
import io.cq.core.QueueInterruptedException;
import io.cq.core.WriteContext;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.memory.ComposeBuffer;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.memory.Utf8;
import io.cq.core.internal.queue.QueueContext;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The appender of an async queue: composes each excerpt in a buffer of its own, then adds it to the queue's async
 * buffer under the buffer's lock, giving it the queue index it gets when the drainer copies it in
 * (docs/file-format.md, "Async buffer"). Nothing here touches the queue's files, so a storage stall reaches a writer
 * only when it lasts long enough to fill the buffer.
 */
final class AsyncAppender implements ExcerptAppender {
    private final QueueContext queue;
    private final AsyncRing ring;
    private final WriteLock lock;
    private final SegmentCursor cursor = new SegmentCursor();
    private final ComposeBuffer buffer;
    private final AsyncContext context = new AsyncContext();
    private final long maxExcerpt;
    /** Whether the buffer, not the block size, sets the largest excerpt: then its error names the buffer. */
    private final boolean limitedByBuffer;
    private long lastIndexAppended = -1;
    /** Volatile: the queue's close may close the appender from another thread. */
    private volatile boolean closed;
    /** Whether the open context holds the buffer's lock already, because its index was asked for. */
    private boolean locked;
    private long lockedIndex;
    private long lockedMillis;

    AsyncAppender(QueueContext queue, AsyncRing ring) {
        this.queue = queue;
        this.ring = ring;
        this.lock = new WriteLock(ring.lockWord(), queue.tableStore(), queue.writeLockCheckNanos(),
                queue.writeLockTimeoutNanos());
        long blockSize = queue.queue().settings().blockSize();
        this.maxExcerpt = Math.min(BlockDescriptor.maxExcerptSize(blockSize), ring.maxExcerpt());
        this.limitedByBuffer = ring.maxExcerpt() < BlockDescriptor.maxExcerptSize(blockSize);
        this.buffer = new ComposeBuffer(maxExcerpt, blockSize);
    }

    @Override
    public WriteContext writingDocument() {
        if (context.open) {
            throw new IllegalStateException("this appender already has an open write context: close it first");
        }
        if (closed) {
            throw new QueueClosedException("appender of queue " + queue.describe() + " is closed");
        }
        buffer.bind(cursor);
        if (limitedByBuffer) {
            cursor.limitedByAsyncBuffer(ring.capacity());
        }
        context.open = true;
        context.rollback = false;
        return context;
    }

    @Override
    public long writeText(CharSequence text) {
        try (WriteContext dc = writingDocument()) {
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

    /** Takes the buffer's lock and gives the next excerpt its index; the lock is held until the record is added. */
    private void lockAndNumber() {
        lock.acquire();
        try {
            if (lock.tookOver()) {
                ring.repairLastIndex();
            }
            long millis = queue.clock().millis();
            long cycle = queue.calendar().cycleAt(millis);
            long last = ring.lastIndex();
            long index;
            if (last < 0) {
                cycle = Math.max(cycle, queue.tableStore().maxCycle());
                index = queue.rollCycle().toIndex(cycle, 0);
            } else {
                long lastCycle = queue.rollCycle().toCycle(last);
                if (cycle > lastCycle) {
                    index = queue.rollCycle().toIndex(cycle, 0);
                } else {
                    long sequence = queue.rollCycle().toSequenceNumber(last) + 1;
                    if (sequence > queue.rollCycle().maxSequenceNumber()) {
                        throw new QueueException("cycle " + lastCycle + " of queue " + queue.describe() + " holds its "
                                + "maximum of " + sequence + " excerpts; use a roll cycle with more sequence bits "
                                + "(e.g. LARGE_DAILY) or a shorter one");
                    }
                    index = queue.rollCycle().toIndex(lastCycle, sequence);
                    // A clock behind the last record's (another process's) adds to that record's cycle.
                    millis = Math.max(millis, queue.calendar().cycleStartMillis(lastCycle));
                    cycle = lastCycle;
                }
            }
            lockedIndex = index;
            lockedMillis = millis;
            locked = true;
        } catch (RuntimeException | Error e) {
            lock.release();
            throw e;
        }
    }

    /** Adds the composed excerpt as a record, waiting (up to the write-lock timeout) for the drainer to make room. */
    private void addRecord(long length) {
        long size = AsyncRingDescriptor.recordSize(length);
        long place = ring.placeFor(size);
        if (!ring.hasRoom(place, size)) {
            awaitRoom(place, size);
        }
        ring.add(place, lockedIndex, lockedMillis, buffer.segment(), length);
        lastIndexAppended = lockedIndex;
        queue.appended().recordUnderWriteLock((int) length);
    }

    private void awaitRoom(long place, long size) {
        long started = System.nanoTime();
        long park = 1_000;
        while (!ring.hasRoom(place, size)) {
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, 1_000_000);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new QueueInterruptedException("interrupted while waiting for room in the async buffer of queue "
                        + queue.describe() + "; nothing was written");
            }
            long waited = System.nanoTime() - started;
            if (waited >= queue.writeLockTimeoutNanos()) {
                boolean draining = queue.tableStore().locks().isHeld(TableStoreDescriptor.ASYNC_DRAIN_LOCK,
                        "async drainer");
                throw new AsyncBufferFullException(queue.files().directory(), ring.capacity(),
                        Duration.ofNanos(waited), draining);
            }
        }
    }

    /**
     * Synchronized: besides its owner, the queue's close may close it. An open context is dropped: nothing of it was
     * added to the buffer.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (context.open) {
            context.open = false;
            context.droppedByClose = true;
        }
        lock.close();
        queue.resources().remove(this);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    private final class AsyncContext implements WriteContext {
        boolean open;
        boolean rollback;
        boolean droppedByClose;

        @Override
        public ExcerptBytes bytes() {
            return cursor;
        }

        /** Known only under the buffer's lock: taken here, and held until the context closes. */
        @Override
        public long index() {
            if (!open) {
                throw new IllegalStateException("this write context is closed");
            }
            if (!locked) {
                lockAndNumber();
            }
            return lockedIndex;
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
                    releaseIfLocked();
                    cursor.unbind();
                    throw new QueueClosedException("appender of queue " + queue.describe() + " was closed while its "
                            + "excerpt was being composed; nothing was written");
                }
                return;
            }
            open = false;
            long length = cursor.position();
            boolean failed = rollback || cursor.failed();
            cursor.unbind();
            try {
                if (!failed) {
                    if (!locked) {
                        lockAndNumber();
                    }
                    addRecord(length);
                }
            } finally {
                releaseIfLocked();
                buffer.releaseIfLarge();
            }
        }
    }

    private void releaseIfLocked() {
        if (locked) {
            locked = false;
            lock.release();
        }
    }
}
