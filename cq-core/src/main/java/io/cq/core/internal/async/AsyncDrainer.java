package io.cq.core.internal.async;

import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;
import io.cq.core.internal.codec.Crc32cTrailer;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.os.ThreadPriority;
import io.cq.core.internal.queue.AppendCounter;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.internal.queue.RecordSealer;
import io.cq.core.internal.queue.StoreAppender;
import io.cq.core.internal.queue.StoreTailer;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Copies an async queue's buffered records into the queue, in order, each at the index the buffer gave it
 * (docs/file-format.md, "Async buffer"). One per JVM and buffer, running while a queue of this JVM that drains has the
 * queue open; of all processes, only the one holding the table store's drain lock drains, and when it dies another
 * takes the lock and first finishes what the dead one left half done. The queue that opened first lends its files;
 * when it closes, the next one does, and the last one to close drains what is left before it lets go.
 */
final class AsyncDrainer {
    private static final Map<AsyncRing, AsyncDrainer> DRAINERS = new IdentityHashMap<>();
    private static final int BATCH = 256;
    /** The drainer's nice value where it can be set: a tenth of a default thread's share of a busy core. */
    private static final int DRAINER_NICE = 10;
    private static final long LOCK_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MIN_IDLE_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long MAX_IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long FAILURE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long FAILURE_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final AsyncRing ring;
    private final TableStore store;
    /** The queues of this JVM that drain this buffer, oldest first; the first one's files are written. */
    private final List<QueueContext> queues = new ArrayList<>();
    private final Thread thread;
    private QueueContext current;
    private StoreAppender appender;
    /** Frames excerpts for a queue with codecs; null for a plain one. */
    private RecordSealer sealer;
    private StoreTailer checker;
    private boolean holding;
    private volatile boolean stopped;
    private long drainedIndex;
    private long drainedPosition;
    private long nextPosition;
    /** Records whose index in the queue was not the one the buffer gave them (only if something else wrote). */
    private long misplaced;
    private long misplacedLogged;
    private long lastFailureLogged = System.nanoTime() - FAILURE_LOG_INTERVAL_NANOS;

    private AsyncDrainer(AsyncRing ring, QueueContext first) {
        this.ring = ring;
        this.store = ring.tableStore();
        this.queues.add(first);
        this.thread = Thread.ofPlatform().daemon().name("cq-async-drainer " + first.describe()).unstarted(this::run);
    }

    /** Lets a queue of this JVM drain its buffer: starts the buffer's drainer if none runs here. */
    static void register(AsyncRing ring, QueueContext queue) {
        synchronized (DRAINERS) {
            AsyncDrainer drainer = DRAINERS.get(ring);
            if (drainer == null) {
                drainer = new AsyncDrainer(ring, queue);
                DRAINERS.put(ring, drainer);
                drainer.thread.start();
            } else {
                drainer.add(queue);
            }
        }
    }

    /**
     * A queue closes: its files are no longer written. When it was the last queue of this JVM to drain the buffer and
     * this JVM drains, what the buffer holds now is drained first (for at most the write-lock timeout), then the
     * drain lock is let go for another process.
     */
    static void unregister(AsyncRing ring, QueueContext queue) {
        AsyncDrainer drainer;
        boolean last;
        synchronized (DRAINERS) {
            drainer = DRAINERS.get(ring);
            if (drainer == null) {
                return;
            }
            last = drainer.remove(queue);
            if (last) {
                DRAINERS.remove(ring);
            }
        }
        if (last) {
            drainer.stop(queue);
        }
    }

    private synchronized void add(QueueContext queue) {
        queues.add(queue);
    }

    /** Whether it was the last queue. */
    private synchronized boolean remove(QueueContext queue) {
        if (queues.size() == 1 && queues.get(0) == queue) {
            return true;
        }
        queues.remove(queue);
        if (current == queue) {
            closeTarget();
        }
        return false;
    }

    private void stop(QueueContext last) {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.NANOSECONDS.toMillis(last.writeLockTimeoutNanos()) + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            // A queue closed right after it opened may find the drainer thread not yet holding the drain lock (it had
            // not run, or had not taken it yet): the close takes it then, unless another process drains, so that
            // what was appended reaches the files and the buffer can be deleted.
            if (!holding && tryTakeDrainLock(last)) {
                holding = true;
            }
            if (holding) {
                finalDrain(last);
                holding = false;
                store.locks().unlock(TableStoreDescriptor.ASYNC_DRAIN_LOCK);
            }
            closeTarget();
        }
    }

    private boolean tryTakeDrainLock(QueueContext last) {
        try {
            if (!store.locks().tryHold(TableStoreDescriptor.ASYNC_DRAIN_LOCK)) {
                return false;
            }
        } catch (RuntimeException | Error e) {
            Log.warning(MappedQueue.class, "could not take the drain lock of " + last.describe() + " on close; "
                    + "what the async buffer holds stays there for the next process that opens the queue", e);
            return false;
        }
        try {
            ensureTarget();
            recover();
            return true;
        } catch (RuntimeException | Error e) {
            store.locks().unlock(TableStoreDescriptor.ASYNC_DRAIN_LOCK);
            Log.warning(MappedQueue.class, "could not drain the async buffer of " + last.describe() + " on close; "
                    + "what it holds stays there for the next process that opens the queue", e);
            return false;
        }
    }

    private void finalDrain(QueueContext last) {
        long until = ring.tail();
        long deadline = System.nanoTime() + last.writeLockTimeoutNanos();
        try {
            ensureTarget();
            while (nextPosition < until && System.nanoTime() - deadline < 0) {
                drainBatch(until);
            }
        } catch (RuntimeException | Error e) {
            Log.warning(MappedQueue.class, "could not drain the async buffer of " + last.describe() + " on close; "
                    + "what it holds stays there for the next process that opens the queue", e);
        }
    }

    private void run() {
        // Below the application's threads: on a small machine the drainer, slowed by storage, would otherwise take
        // the core of the very writer it shields, which then waits the whole stall out (docs/user-guide.md).
        ThreadPriority.niceThisThread(DRAINER_NICE);
        long idleNanos = 0;
        while (!stopped) {
            int drained;
            Throwable failure = null;
            synchronized (this) {
                try {
                    drained = step();
                } catch (RuntimeException | Error e) {
                    failure = e;
                    drained = 0;
                }
            }
            if (failure != null) {
                // Logged outside the monitor and after the write lock was given back, at most every 10 s.
                reportFailure(failure);
                LockSupport.parkNanos(this, FAILURE_PAUSE_NANOS);
            } else if (drained < 0) {
                LockSupport.parkNanos(this, LOCK_POLL_NANOS);
            } else if (drained == 0) {
                idleNanos = idle(idleNanos);
            } else {
                idleNanos = 0;
            }
            reportMisplaced();
        }
    }

    /** Drains a batch; -1 when another process drains. */
    private int step() {
        if (!holding) {
            if (!store.locks().tryHold(TableStoreDescriptor.ASYNC_DRAIN_LOCK)) {
                return -1;
            }
            holding = true;
            ensureTarget();
            recover();
        }
        ensureTarget();
        return drainBatch(ring.tail());
    }

    /**
     * Backs off while there is nothing to drain: parks for growing intervals, from 20 µs up to 1 ms, and never spins.
     * Readers read buffered excerpts without waiting for it, so the drainer need not be quick to wake, and on a small
     * machine a spinning drainer would take the core a writer needs.
     */
    private long idle(long idleNanos) {
        long park = idleNanos == 0 ? MIN_IDLE_PARK_NANOS : idleNanos;
        LockSupport.parkNanos(this, park);
        return Math.min(park * 2, MAX_IDLE_PARK_NANOS);
    }

    private void ensureTarget() {
        if (current == null) {
            current = queues.get(0);
            // Its own counter: drained excerpts were counted when they were added to the buffer.
            QueueContext own = new QueueContext(current.queue(), current.files(), current.tableStore(),
                    current.namedTailers(), current.rollCycle(), current.clock(), current.cycleClock(),
                    current.writeLockCheckNanos(),
                    current.writeLockTimeoutNanos(), current.syncEachAppend(), current.retention(),
                    current.resources(), new AppendCounter(), current.codecs());
            appender = new StoreAppender(own);
            // A checksum-only queue's appender checksums in place; other codecs frame the excerpt first.
            sealer = own.codecs().isPlain() || Crc32cTrailer.inPlace(own.codecs()) ? null : new RecordSealer(own);
            checker = new StoreTailer(own, null, -1);
        }
    }

    private void closeTarget() {
        if (appender != null) {
            appender.close();
            checker.close();
            appender = null;
            checker = null;
        }
        current = null;
    }

    /**
     * Taking over from a drainer that died: it records a record as drained before it publishes its excerpt, so when
     * the queue lacks the excerpt of the last record drained, that record is copied again; otherwise everything up
     * to the recorded position is in the queue.
     */
    private void recover() {
        AsyncRing.DrainState state = new AsyncRing.DrainState();
        ring.readDrained(state);
        drainedIndex = state.drainedIndex;
        drainedPosition = state.drainedPosition;
        nextPosition = state.nextPosition;
        if (drainedPosition != nextPosition && !checker.moveToIndex(drainedIndex)) {
            nextPosition = drainedPosition;
            ring.writeDrained(drainedIndex, drainedPosition, nextPosition);
        }
        if (ring.head() < nextPosition) {
            ring.freeUpTo(nextPosition);
        }
    }

    /** Copies the records below {@code until} (at most a batch); returns how many. */
    private int drainBatch(long until) {
        int count = 0;
        while (nextPosition < until && count < BATCH) {
            long position = nextPosition;
            int length = ring.lengthAt(position);
            long after = ring.after(position, length);
            if (length == AsyncRingDescriptor.PADDING) {
                ring.writeDrained(drainedIndex, drainedPosition, after);
                ring.freeUpTo(after);
                nextPosition = after;
                continue;
            }
            long index = ring.indexAt(position);
            WriteContext context = appender.writingDocumentAt(ring.millisAt(position));
            long got;
            try {
                got = context.index();
                if (sealer == null) {
                    ((SegmentCursor) context.bytes()).writeSegment(ring.records(), ring.excerptOffset(position),
                            length);
                } else {
                    // The buffer holds excerpts as written; the queue's codecs frame them on the way into its files.
                    sealer.frame(ring.records(), ring.excerptOffset(position), length);
                    sealer.sealInto(appender);
                }
                // Recorded before the excerpt is published, so a reader that finds the queue without it knows where
                // to look, and a successor that finds it missing copies the record again.
                ring.writeDrained(got, position, after);
            } catch (RuntimeException | Error e) {
                context.rollbackOnClose();
                context.close();
                throw e;
            }
            try {
                context.close();
            } catch (RuntimeException | Error e) {
                ring.writeDrained(drainedIndex, drainedPosition, position);
                throw e;
            }
            ring.freeUpTo(after);
            if (got != index) {
                misplaced++;
            }
            drainedIndex = got;
            drainedPosition = position;
            nextPosition = after;
            count++;
        }
        return count;
    }

    private void reportFailure(Throwable failure) {
        long now = System.nanoTime();
        if (now - lastFailureLogged >= FAILURE_LOG_INTERVAL_NANOS) {
            lastFailureLogged = now;
            Log.warning(MappedQueue.class, "cannot drain the async buffer " + ring.path() + " into its queue; "
                    + "retrying every 100 ms (writers wait once the buffer is full)", failure);
        }
    }

    private void reportMisplaced() {
        long seen = misplaced;
        if (seen != misplacedLogged) {
            misplacedLogged = seen;
            Log.warning(MappedQueue.class, "{0} excerpts of the async buffer {1} got another index in the queue than "
                    + "the buffer gave them: something appends to the queue without going through its async buffer",
                    String.valueOf(seen), ring.path());
        }
    }
}
