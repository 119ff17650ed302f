package io.cq.core.internal.lock;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The queue-wide append lock: a word in the table store that appenders in any thread or process take with a
 * compare-and-set of their token and give back with a compare-and-set from it (docs/file-format.md, "Locks and
 * liveness"; the transitions are {@link LockWord}'s).
 *
 * <p>A writer that finds the word taken spins briefly, then waits in this JVM's {@link WaitingLine}: parked, so a
 * burst of virtual threads holds no carrier, and in order, so nobody is passed over for long. Only the front of the
 * line competes for the word with other processes: it spins, yields, then sleeps for growing intervals (up to a
 * millisecond once it has waited long), which a release in this JVM cuts short once the front is urgent, so it
 * neither takes a core from the holder on a small machine nor burns one while a holder is slow. Every
 * {@code livenessCheckNanos} of waiting it asks whether the holder is still alive, by the holder's process lock or,
 * in this JVM, by its thread; only a dead holder's lock is taken over. The wait ends with an interrupt
 * ({@link io.cq.core.QueueInterruptedException}) or after {@code timeoutNanos}
 * ({@link io.cq.core.WriteLockTimeoutException}, naming the live holder). Each appender owns one WriteLock; not
 * thread-safe.
 */
public final class WriteLock implements AutoCloseable {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    /** How long the front of the line yields before it sleeps, whatever number of yields that took. */
    private static final long YIELD_PHASE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long SHORT_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long LONG_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Waited longer than this, a waiter parks up to {@link #LONG_PARK_NANOS}: the holder is slow, not busy. */
    private static final long LONG_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long WARN_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final WriteLockWord word;
    /**
     * The write locks of this JVM on this queue by token, to tell a live thread's hold from a dead thread's. Kept by
     * the queue's table store: tokens are unique per queue, so a JVM-wide map would mix two queues' locks, and a
     * waiter would take a live holder's lock once the other queue's lock of the same token closed.
     */
    private final Map<Long, Object> live;
    private final long token;
    private final long livenessCheckNanos;
    private final long timeoutNanos;
    /**
     * The thread that last took the lock; read only by waiters of this JVM deciding whether it died. Set before the
     * compare-and-set that takes the lock, so a waiter that reads this token in the word reads this thread here.
     */
    private Thread holder;
    /** The dead holder this appender took the lock from while it holds it, logged once it released it. */
    private long tookOverFrom = LockWordDescriptor.FREE;
    /** The table store, whose write generation this lock advances on every take; null for another lock's word. */
    private final MemorySegment generations;
    /** This JVM's line of writers for the word, once one has waited; null until then (looked up again). */
    private WaitingLine line;
    /** The write generation this lock found when it last took the lock (one less than the one it left). */
    private long foundGeneration = -1;

    public WriteLock(TableStore store, long livenessCheckNanos, long timeoutNanos) {
        this(new WriteLockWord(store), store, livenessCheckNanos, timeoutNanos, store.memory());
    }

    /**
     * A lock over another word that works the same way, with the table store's tokens and liveness: an async queue's
     * buffer lock (docs/file-format.md, "Async buffer").
     */
    public WriteLock(WriteLockWord word, TableStore store, long livenessCheckNanos, long timeoutNanos) {
        this(word, store, livenessCheckNanos, timeoutNanos, null);
    }

    private WriteLock(WriteLockWord word, TableStore store, long livenessCheckNanos, long timeoutNanos,
                      MemorySegment generations) {
        this.generations = generations;
        this.word = word;
        this.token = word.newToken();
        this.livenessCheckNanos = livenessCheckNanos;
        this.timeoutNanos = timeoutNanos;
        this.live = store.liveWriteLocks();
        live.put(token, this);
    }

    /** This lock's token, which the word holds while this lock is held. */
    public long token() {
        return token;
    }

    /**
     * Whether this appender still holds the lock (it was not taken over). The thread that took it holds it for as long
     * as it runs (nobody takes a live thread's lock), so only another thread's call reads the word.
     */
    public boolean isHeld() {
        return holder == Thread.currentThread() || word.owner() == token;
    }

    public void acquire() {
        holder = Thread.currentThread();
        WaitingLine waiting = line();
        if (waiting != null && waiting.isUrgent() || !word.tryTake(token)) {
            acquireContended();
        }
        advanceGeneration();
    }

    /** This JVM's line for the word once any writer of it has waited (one volatile read until then), else null. */
    private WaitingLine line() {
        WaitingLine waiting = line;
        if (waiting == null) {
            waiting = word.existingLine();
            line = waiting;
        }
        return waiting;
    }

    /**
     * Under the lock just taken: counts this hold in the table store's write generation (plain accesses on the lock
     * word's line, which the take has just made this core's; the release publishes them).
     */
    private void advanceGeneration() {
        if (generations != null) {
            long found = Memory.getLong(generations, LockWordDescriptor.WRITE_GENERATION_OFFSET);
            foundGeneration = found;
            Memory.putLong(generations, LockWordDescriptor.WRITE_GENERATION_OFFSET, found + 1);
        }
    }

    /**
     * The table store's write generation as this lock found it when it last took the lock: equal to the one an
     * earlier hold left ({@link #foundGeneration()} + 1 then) only if nobody took the lock in between.
     */
    public long foundGeneration() {
        return foundGeneration;
    }

    /**
     * Takes the lock if it is free, without waiting (a double-buffered appender buffers instead). A dead holder's lock
     * is not taken over here: the appender's {@link #acquire()} does that when it comes to copy its buffer in.
     */
    public boolean tryAcquire() {
        Thread previous = holder;
        holder = Thread.currentThread();
        WaitingLine waiting = line();
        if ((waiting == null || !waiting.isUrgent()) && word.owner() == LockWordDescriptor.FREE
                && word.tryTake(token)) {
            advanceGeneration();
            return true;
        }
        holder = previous;
        return false;
    }

    /**
     * The slow path (docs/file-format.md, "Waiting in line"): a short spin on the word while nobody of this JVM waits
     * in line, then the line, whose front alone competes for the word.
     */
    private void acquireContended() {
        long started = System.nanoTime();
        long deadline = started + timeoutNanos;
        WaitingLine waiting = line();
        if (waiting == null) {
            waiting = word.line();
            line = waiting;
        }
        if (!waiting.isUrgent() && !waiting.hasQueued()) {
            for (int i = 0; i < SPINS; i++) {
                Thread.onSpinWait();
                if (word.owner() == LockWordDescriptor.FREE && word.tryTake(token)) {
                    return;
                }
            }
        }
        // Before queuing: a thread that holds the lock through another appender would wait in line for itself.
        requireNotHeldByThisThreadElsewhere();
        boolean atFront;
        try {
            atFront = waiting.reachFront(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interruptedAfter(System.nanoTime() - started);
        }
        if (!atFront) {
            throw timedOutAfter(System.nanoTime() - started, waiting);
        }
        try {
            waitAtFront(waiting, started, deadline);
        } finally {
            waiting.leaveFront();
        }
    }

    /**
     * At the front of this JVM's line: competes for the word with other processes' fronts. Spins, yields, then
     * sleeps for growing intervals, which a release of this JVM cuts short once the front is urgent; checks the
     * holder's liveness every {@code livenessCheckNanos} of the whole wait, and ends at {@code deadline}.
     */
    private void waitAtFront(WaitingLine waiting, long started, long deadline) {
        long frontSince = System.nanoTime();
        long nextCheck = started + livenessCheckNanos;
        long park = 1_000;
        for (int attempt = 0; ; attempt++) {
            if (word.owner() == LockWordDescriptor.FREE && word.tryTake(token)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            if (System.nanoTime() - frontSince >= WaitingLine.URGENT_AFTER_NANOS) {
                waiting.markUrgent();
            }
            // Yields only briefly: with more runnable threads than cores, one yield can cost a time slice.
            if (attempt < SPINS + YIELDS && System.nanoTime() - frontSince < YIELD_PHASE_NANOS) {
                Thread.yield();
                continue;
            }
            waiting.sleep(park, word);
            long now = System.nanoTime();
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw interruptedAfter(now - started);
            }
            park = Math.min(park * 2, now - started > LONG_WAIT_NANOS ? LONG_PARK_NANOS : SHORT_PARK_NANOS);
            if (now - nextCheck >= 0) {
                nextCheck = now + livenessCheckNanos;
                if (takeOverFromDeadHolder()) {
                    return;
                }
            }
            if (now - deadline >= 0) {
                if (word.owner() == LockWordDescriptor.FREE && word.tryTake(token)) {
                    return;
                }
                throw timedOutAfter(now - started, waiting);
            }
            if (now - started > WARN_AFTER_NANOS && waiting.firstToWarn()) {
                // Logged while waiting, never while holding: a stalled log must not stall the lock's holder. Once
                // per episode of long waits, however many writers wait.
                Log.warning(WriteLock.class, "waited more than {0} s for the write lock of {1}, held by {2}; {3} "
                        + "more writers of this process wait in line (logged once until the line empties)",
                        String.valueOf(TimeUnit.NANOSECONDS.toSeconds(WARN_AFTER_NANOS)), word.path(),
                        describeOwner(word.owner()), String.valueOf(waiting.queued()));
            }
        }
    }

    private QueueException interruptedAfter(long waitedNanos) {
        return Failures.interrupted("interrupted after waiting " + millis(waitedNanos) + " ms for the write lock of "
                + "queue " + word.path().getParent() + ", held by " + describeOwner(word.owner())
                + "; nothing was written");
    }

    private QueueException timedOutAfter(long waitedNanos, WaitingLine waiting) {
        int queued = waiting.queued();
        return Failures.writeLockTimeout(word.path().getParent(), Duration.ofNanos(waitedNanos),
                describeOwner(word.owner()) + (queued > 0 ? " (" + queued + " more writers of this process wait in "
                        + "line)" : ""));
    }

    /** Who holds the word, for messages; it may have been released since the wait ended. */
    private String describeOwner(long owner) {
        return owner == LockWordDescriptor.FREE ? "nobody at this instant (it was just released)"
                : word.describeHolder(owner);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private boolean takeOverFromDeadHolder() {
        long owner = word.owner();
        if (owner == LockWordDescriptor.FREE || !isDead(owner) || !word.replace(owner, token)) {
            return false;
        }
        // Said after the release: nothing that can block (a stalled log) runs while the lock is held.
        tookOverFrom = owner;
        return true;
    }

    /**
     * A thread that holds the lock through one appender (an open write context) and appends through another would
     * wait for itself until the timeout, then blame a live holder: it is told at once instead.
     */
    private void requireNotHeldByThisThreadElsewhere() {
        long owner = word.owner();
        if (owner != LockWordDescriptor.FREE && LockWordDescriptor.processSlot(owner) == word.processSlot()
                && live.get(owner) instanceof WriteLock other && other != this
                && other.holder == Thread.currentThread()) {
            throw new IllegalStateException("this thread already holds the queue's write lock through another "
                    + "appender's open write context; close that context before appending through another appender");
        }
    }

    private boolean isDead(long owner) {
        if (LockWordDescriptor.processSlot(owner) == word.processSlot()) {
            // Our own process: a token no live appender of this JVM has is a predecessor's that died with its slot.
            WriteLock lock = (WriteLock) live.get(owner);
            if (lock == null) {
                return true;
            }
            Thread thread = lock.holder;
            return thread != null && !thread.isAlive();
        }
        return !word.isHolderProcessAlive(owner);
    }

    /**
     * Whether the current hold was taken over from a holder that died: what it guarded may be half-changed, which the
     * new holder must repair before it relies on it.
     */
    public boolean tookOver() {
        return tookOverFrom != LockWordDescriptor.FREE;
    }

    /**
     * Gives the lock back. A release by an appender whose lock was taken over meanwhile (it was taken for dead)
     * changes nothing and is logged: the lock is not this appender's to give.
     */
    public void release() {
        // The thread that took the lock cannot be taken for dead while it runs, so it still holds it: a release
        // store does. Any other thread (closing an appender for a thread that ended) needs the compare-and-set.
        boolean released = true;
        if (holder == Thread.currentThread()) {
            word.releaseOwned();
        } else {
            released = word.release(token);
        }
        WaitingLine waiting = line();
        if (waiting != null) {
            waiting.wakeFront();
        }
        if (tookOverFrom != LockWordDescriptor.FREE) {
            long dead = tookOverFrom;
            tookOverFrom = LockWordDescriptor.FREE;
            Log.info(WriteLock.class, "took over the write lock of {0} from a writer that died holding it ({1})",
                    word.path(), word.describeHolder(dead));
        }
        if (!released) {
            long owner = word.owner();
            Log.warning(WriteLock.class, "stale release of the write lock of {0}: it is held by {1}, not by this "
                    + "appender (token {2}); left unchanged", word.path(),
                    owner == LockWordDescriptor.FREE ? "nobody" : word.describeHolder(owner), Long.toHexString(token));
        }
    }

    @Override
    public void close() {
        live.remove(token, this);
    }
}
