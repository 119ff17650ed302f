package io.cq.integration.inbound;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.AdapterCounts;
import io.cq.integration.NamedTailers;
import org.springframework.core.log.LogAccessor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The reading thread of an endpoint that serves a queue's excerpts to a flow (the inbound channel adapter, the
 * inbound gateway): claims the endpoint's named tailer, reads until stopped, and stops within a bound. What is done
 * with each excerpt is the endpoint's.
 */
final class TailerWorker {
    private final String kind;
    private final LogAccessor logger;
    /** The endpoint as log lines name it, e.g. {@code cq inbound gateway 'quotes'}: its id is known at start. */
    private volatile String name;
    private volatile boolean running;
    private volatile Thread thread;
    /** What ended the thread, until the next start: the endpoint then reports FAILED. */
    private volatile Throwable failure;

    /** @param kind the endpoint's kind as log lines name it, e.g. {@code cq inbound gateway} */
    TailerWorker(String kind, LogAccessor logger) {
        this.kind = kind;
        this.name = kind;
        this.logger = logger;
    }

    /**
     * Claims the named tailer on the caller's thread, so that a name held elsewhere fails {@code start()} itself,
     * then hands it to a new daemon thread calling {@code readOne} until stopped.
     *
     * @param readOne   reads one excerpt: 1 when there was one (handled, skipped or rolled back), 0 when none
     * @param onFailure run on the reading thread after an unexpected failure ended it (the endpoint stops itself,
     *                  so that {@code start()} starts it again)
     */
    void start(MappedQueue queue, String tailerName, StartPosition startPosition, Supplier<IdleStrategy> idleStrategy,
               String threadName, ToIntFunction<ExcerptTailer> readOne, Runnable onFailure) {
        name = kind + " '" + tailerName + "'";
        failure = null;
        ExcerptTailer tailer = queue.createTailer(tailerName);
        try {
            NamedTailers.moveToStart(tailer, startPosition);
        } catch (RuntimeException e) {
            tailer.close();
            throw e;
        }
        running = true;
        Thread started = Thread.ofPlatform().name(threadName).daemon(true)
                .unstarted(() -> readUntilStopped(queue, tailer, idleStrategy.get(), readOne, onFailure));
        thread = started;
        started.start();
    }

    private void readUntilStopped(MappedQueue queue, ExcerptTailer tailer, IdleStrategy idle,
                                  ToIntFunction<ExcerptTailer> readOne, Runnable onFailure) {
        Throwable failed = null;
        try {
            while (running) {
                idle.idle(readOne.applyAsInt(tailer));
            }
        } catch (RuntimeException | Error e) {
            failed = e;
            failure = e;
            running = false;
            logger.error(e, () -> name + " stopped reading queue " + queue.path() + " after an unexpected failure; "
                    + "it is FAILED until started again, from the excerpt it failed on");
        } finally {
            tailer.close();
        }
        if (failed != null) {
            // On a thread of its own: the endpoint's stop() takes its lifecycle lock, which a stop() on another thread
            // may hold while it waits for this very thread to end. And only if this thread is still the endpoint's
            // worker: a stop() meanwhile, or a stop() and start(), leaves nothing for it to stop.
            Thread failedThread = Thread.currentThread();
            Thread.ofPlatform().daemon().name(failedThread.getName() + "-stop").start(() -> {
                if (thread == failedThread) {
                    onFailure.run();
                }
            });
        }
    }

    /** What ended the reading thread, or null: it runs, was stopped, or was started again since. */
    Throwable failure() {
        return failure;
    }

    /**
     * Waits up to {@code timeout} for the excerpt in hand, then interrupts the thread (the excerpt is delivered
     * again, since it was not committed).
     */
    void stop(Duration timeout) {
        running = false;
        Thread current = thread;
        if (current == null || current == Thread.currentThread()) {
            return;
        }
        try {
            if (!current.join(timeout)) {
                logger.warn(() -> name + " still busy with an excerpt after " + timeout + "; interrupting it (the "
                        + "excerpt will be delivered again)");
                current.interrupt();
                current.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
    }

    /**
     * One excerpt through {@code handle}: what it returns when there was one (1: handled, skipped or rolled back), 0
     * when the queue had none. An {@code Error} from {@code handle} counts as failed, rolls the excerpt back and ends
     * the reading thread (FAILED): closing the context would otherwise commit an excerpt nobody handled.
     */
    static int readOne(ExcerptTailer tailer, AdapterCounts counts, ToIntFunction<ReadContext> handle) {
        try (ReadContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return 0;
            }
            try {
                return handle.applyAsInt(context);
            } catch (Error e) {
                counts.countFailed();
                context.rollbackOnClose();
                throw e;
            }
        }
    }

    /** Whether the thread reads: false once stopped, or after an unexpected failure ended it. */
    boolean running() {
        return running;
    }

    /**
     * The flow threw on the excerpt in hand: rolls it back, so it is delivered again, says so, and waits the delay
     * before the next read.
     */
    void redeliverLater(ReadContext context, RuntimeException failure, Duration delay) {
        context.rollbackOnClose();
        long index = context.index();
        logger.warn(failure, () -> "flow of " + name + " failed on excerpt 0x" + Long.toHexString(index)
                + "; delivering it again in " + delay);
        waitBeforeRedelivery(delay);
    }

    /** Parks in slices, so that stop() never waits for a whole redelivery delay. */
    void waitBeforeRedelivery(Duration delay) {
        long deadline = System.nanoTime() + delay.toNanos();
        long slice = TimeUnit.MILLISECONDS.toNanos(50);
        for (long left = delay.toNanos(); running && left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(Math.min(left, slice));
        }
    }
}
