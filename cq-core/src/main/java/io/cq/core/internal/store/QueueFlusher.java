package io.cq.core.internal.store;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread per JVM for the periodic work of all queues: forcing written pages to storage in
 * {@link io.cq.core.Durability#ASYNC} mode, and pretouching.
 */
public final class QueueFlusher {
    private static final ScheduledThreadPoolExecutor EXECUTOR = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "cq-background");
        thread.setDaemon(true);
        return thread;
    });

    static {
        EXECUTOR.setRemoveOnCancelPolicy(true);
    }

    private QueueFlusher() {
    }

    /** Runs a queue's periodic background task (such as its pretoucher); cancel the result when the queue closes. */
    public static ScheduledFuture<?> scheduleTask(Runnable task, long intervalNanos, java.nio.file.Path queue) {
        return EXECUTOR.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                Log.warning(QueueFlusher.class, "background task of queue " + queue + " failed", e);
            }
        }, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }

    /** Starts forcing the queue's files every {@code intervalNanos}; cancel the result when the queue closes. */
    public static ScheduledFuture<?> schedule(CycleFiles files, long intervalNanos) {
        return EXECUTOR.scheduleWithFixedDelay(() -> {
            try {
                files.forceWritten();
            } catch (RuntimeException e) {
                Log.warning(QueueFlusher.class, "cannot force the files of " + files.directory() + " to storage", e);
            }
        }, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }
}
