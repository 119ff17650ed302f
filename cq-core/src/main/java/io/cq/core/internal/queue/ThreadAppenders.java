package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.internal.system.BackgroundWork;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Each thread's convenience appender of one queue ({@code acquireAppender()}). The thread's map holds a
 * {@link ThreadBound}, which is emptied when the queue closes or the thread has ended, so no thread keeps a closed
 * queue (or an ended thread's appender) reachable. Thread-safe.
 */
final class ThreadAppenders {
    private static final int MIN_SWEEP_AT = 64;
    private static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;

    private final Path directory;
    /** Makes an appender the queue tracks (and closes with itself). */
    private final Supplier<ExcerptAppender> newAppender;
    private final ThreadLocal<ThreadBound> threadAppenders = new ThreadLocal<>();
    private final Set<ThreadBound> threadBound = ConcurrentHashMap.newKeySet();
    /** Thread-bound appenders past which creating one first closes those of ended threads. */
    private final AtomicInteger sweepAt = new AtomicInteger(MIN_SWEEP_AT);
    private volatile ScheduledFuture<?> sweeper;
    private boolean closed;

    ThreadAppenders(Path directory, Supplier<ExcerptAppender> newAppender) {
        this.directory = directory;
        this.newAppender = newAppender;
    }

    /** The calling thread's appender, made when it has none or its own was closed. */
    ExcerptAppender acquire() {
        ThreadBound bound = threadAppenders.get();
        ExcerptAppender appender = bound == null ? null : bound.appender;
        if (appender != null && !isClosed(appender)) {
            return appender;
        }
        return newThreadBoundAppender(bound);
    }

    private static boolean isClosed(ExcerptAppender appender) {
        return appender.isClosed();
    }

    private ExcerptAppender newThreadBoundAppender(ThreadBound existing) {
        ThreadBound bound = existing;
        if (bound == null) {
            bound = new ThreadBound(Thread.currentThread());
            threadAppenders.set(bound);
        }
        ExcerptAppender appender = newAppender.get();
        bound.appender = appender;
        threadBound.add(bound);
        if (threadBound.size() >= sweepAt.get()) {
            closeAppendersOfEndedThreads();
        }
        if (sweeper == null) {
            startSweeper();
        }
        return appender;
    }

    private synchronized void startSweeper() {
        if (sweeper == null && !closed) {
            // Threads that appended once and ended are found within a second even if no other thread appends.
            sweeper = BackgroundWork.every(SWEEP_INTERVAL_NANOS, directory, this::closeAppendersOfEndedThreads);
        }
    }

    /**
     * Closes the thread-bound appenders of threads that have ended: an ended thread can no longer use its appender,
     * and its files and memory go back. Run when their number doubles and every second, so the cost per appender
     * is constant and ended threads' appenders do not pile up.
     */
    private void closeAppendersOfEndedThreads() {
        for (ThreadBound bound : threadBound) {
            if (!bound.thread.isAlive()) {
                ExcerptAppender appender = bound.appender;
                bound.appender = null;
                threadBound.remove(bound);
                if (appender != null) {
                    appender.close();
                }
            }
        }
        sweepAt.set(Math.max(MIN_SWEEP_AT, 2 * threadBound.size()));
    }

    /** After the queue closed its appenders: stops the sweep and empties what the threads' maps hold. */
    void close() {
        ScheduledFuture<?> sweeping;
        synchronized (this) {
            closed = true;
            sweeping = sweeper;
        }
        if (sweeping != null) {
            sweeping.cancel(false);
        }
        // The threads' maps keep their ThreadBound; emptied, it keeps nothing of this queue.
        for (ThreadBound bound : threadBound) {
            bound.appender = null;
        }
        threadBound.clear();
    }

    /** What a thread's map holds for its convenience appender: emptied when the queue or the thread is done. */
    private static final class ThreadBound {
        final Thread thread;
        volatile ExcerptAppender appender;

        ThreadBound(Thread thread) {
            this.thread = thread;
        }
    }
}
