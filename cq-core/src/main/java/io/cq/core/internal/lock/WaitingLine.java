package io.cq.core.internal.lock;

import io.cq.core.internal.layout.LockWordDescriptor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writers of this JVM that wait for one lock word, in line (docs/file-format.md, "Waiting in line"). Only the
 * writer at the front competes for the word with other processes and with barging newcomers; the rest are parked in
 * a fair {@link ReentrantLock}'s queue, where a parked virtual thread holds no carrier and costs nothing, and where a
 * timeout or an interrupt leaves the line at once. Thread-safe; one per lock word per JVM.
 *
 * <p>Unfairness is bounded: once the front has waited {@link #URGENT_AFTER_NANOS}, writers of this JVM stop taking
 * the word on their way in and join the line instead, until the front has it.
 */
final class WaitingLine {
    /** Waited this long at the front, a writer makes newcomers of this JVM queue behind it. */
    static final long URGENT_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ReentrantLock line = new ReentrantLock(true);
    /** The writer at the front while it sleeps: a release of this JVM wakes it. Volatile: read on every release. */
    private volatile Thread sleeping;
    private static final VarHandle SLEEPING;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(WaitingLine.class, "sleeping", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Whether the front has waited long: newcomers queue instead of taking the word (read on every take). */
    private volatile boolean urgent;
    /** Whether this episode of long waits was warned of: one warning per episode, not one per waiter. */
    private final AtomicBoolean warned = new AtomicBoolean();

    /** Whether a writer arriving now must queue rather than try the word. */
    boolean isUrgent() {
        return urgent;
    }

    /** Whether other writers of this JVM wait in line: a newcomer then queues behind them, without spinning. */
    boolean hasQueued() {
        return line.hasQueuedThreads();
    }

    /**
     * Waits to reach the front, until {@code deadline} ({@link System#nanoTime()}).
     *
     * @return false when the deadline passed first
     * @throws InterruptedException when interrupted while queued
     */
    boolean reachFront(long deadline) throws InterruptedException {
        return line.tryLock() || line.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** Called by the front once it has waited long: from now on, newcomers queue behind it. */
    void markUrgent() {
        if (!urgent) {
            urgent = true;
        }
    }

    /**
     * Parks the front for up to {@code nanos}; once it is urgent, a release of this JVM wakes it, so that the writer
     * the others now queue behind follows the holder at once.
     */
    void sleep(long nanos, WriteLockWord word) {
        if (!urgent) {
            // Not woken by releases until urgent: a front woken at every release of a holder appending back to back
            // would spin and yield a core away from it (4 writers on 2 cores lost a quarter of their rate so).
            LockSupport.parkNanos(this, nanos);
            return;
        }
        sleeping = Thread.currentThread();
        // Looked at after saying it sleeps: a release before this is seen here, one after it wakes the sleeper.
        if (word.owner() != LockWordDescriptor.FREE) {
            LockSupport.parkNanos(this, nanos);
        }
        sleeping = null;
    }

    /**
     * After a release of the word: wakes the front if it sleeps, once per sleep (a holder appending back to back
     * makes no system call per release). One volatile read when nobody sleeps.
     */
    void wakeFront() {
        Thread front = sleeping;
        if (front != null && SLEEPING.compareAndSet(this, front, null)) {
            LockSupport.unpark(front);
        }
    }

    /**
     * The front leaves the line, having taken the word or given up; the next writer becomes the front. When nobody
     * else waits, the episode of long waits is over and the next one is warned of again.
     */
    void leaveFront() {
        urgent = false;
        if (!line.hasQueuedThreads()) {
            warned.set(false);
        }
        line.unlock();
    }

    /** Whether this waiter is the first of its episode to warn: only one of a burst logs. */
    boolean firstToWarn() {
        return warned.compareAndSet(false, true);
    }

    /** How many writers of this JVM wait behind the front (an estimate, for messages). */
    int queued() {
        return line.getQueueLength();
    }
}
