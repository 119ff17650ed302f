package io.cq.core.internal.system;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one background thread per JVM ({@code cq-background}, a daemon) for the slow-path work of every queue:
 * linking the FFM downcalls, reserving, mapping and faulting in the next block of a file before its appender
 * gets there, forcing pages to storage in {@link io.cq.core.Durability#ASYNC} mode, and pretouching. No queue
 * depends on it for correctness: an appender that finds a block unprepared prepares it itself.
 */
public final class BackgroundWork {
    private static final ScheduledThreadPoolExecutor EXECUTOR = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "cq-background");
        thread.setDaemon(true);
        return thread;
    });

    static {
        EXECUTOR.setRemoveOnCancelPolicy(true);
    }

    private BackgroundWork() {
    }

    /** Runs a one-off task soon. */
    public static void submit(Runnable task) {
        EXECUTOR.execute(task);
    }

    /**
     * Waits until the tasks submitted so far, and a periodic task running now, are done: for a queue that is
     * closing and must not have its files changed under it afterwards.
     */
    public static void drain() {
        try {
            EXECUTOR.submit(() -> { }).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            Log.warning(BackgroundWork.class, "background work did not finish within 10 s", e);
        }
    }

    /** Runs a queue's periodic task (forcing, pretouching); cancel the result when the queue closes. */
    public static ScheduledFuture<?> every(long intervalNanos, Path queue, Runnable task) {
        return EXECUTOR.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                Log.warning(BackgroundWork.class, "background task of queue " + queue + " failed", e);
            }
        }, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }
}
