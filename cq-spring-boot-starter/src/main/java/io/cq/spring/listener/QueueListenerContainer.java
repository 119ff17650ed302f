package io.cq.spring.listener;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import io.cq.core.idle.IdleStrategy;
import io.cq.spring.listener.ExcerptDelivery.Outcome;
import io.cq.spring.listener.invoke.InboundExcerpt;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Runs one {@link io.cq.spring.annotation.QueueListener}: a thread named {@code cq-listener-<id>} that owns the
 * listener's named tailer, reads each excerpt, calls the method and commits the position only after it returned.
 * Start, stop, pause, resume and seek may be called from any thread; seeks run on the container's thread, which owns
 * the tailer.
 *
 * <p>Stopping finishes the excerpt in hand (a retry pause is cut short and the excerpt left uncommitted, to be
 * read again after the next start), then releases the tailer.
 */
public final class QueueListenerContainer implements SmartLifecycle {
    /**
     * Late start and early stop: listeners run only while everything they may call is up. The registry of containers
     * runs in this phase and starts and stops its containers itself.
     */
    public static final int PHASE = Integer.MAX_VALUE - 1000;

    private static final Log log = LogFactory.getLog(QueueListenerContainer.class);
    private static final long PAUSE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ListenerEndpoint endpoint;
    private final MappedQueue queue;
    private final ContainerSettings settings;
    private final ContainerEvents events;
    private final ContainerCommands commands = new ContainerCommands();
    private final ExcerptDelivery delivery;

    private volatile ListenerState state = ListenerState.CREATED;
    private volatile boolean running;
    private volatile boolean paused;
    /** Excerpts read between housekeeping rounds of a busy listener. */
    private static final int BATCH = 256;

    private static final VarHandle NEXT_INDEX;

    static {
        try {
            NEXT_INDEX = MethodHandles.lookup().findVarHandle(QueueListenerContainer.class, "nextIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Published by the container thread after every excerpt with a release store (a plain store on x86, where a
     * volatile write would fence every excerpt), so that {@link #lag()} read from any thread is current.
     */
    private volatile long nextIndex = -1;
    private volatile Thread thread;
    /** Owned by the container thread while it runs. */
    private ExcerptTailer tailer;

    public QueueListenerContainer(ListenerEndpoint endpoint, MappedQueue queue, ContainerSettings settings,
                                  ApplicationEventPublisher events) {
        this.endpoint = endpoint;
        this.queue = queue;
        this.settings = settings;
        this.events = new ContainerEvents(this, endpoint, events);
        this.delivery = new ExcerptDelivery(endpoint, settings.retryPolicy(), settings.errorHandler(), () -> running);
    }

    @Override
    public synchronized void start() {
        if (thread != null && thread.isAlive()) {
            return;
        }
        running = true;
        state = ListenerState.RUNNING;
        Thread started = new Thread(this::run, "cq-listener-" + endpoint.id());
        thread = started;
        started.start();
    }

    /** Asks the thread to finish the excerpt in hand and waits for it, up to the shutdown timeout. */
    @Override
    public void stop() {
        Thread current;
        synchronized (this) {
            current = thread;
            running = false;
        }
        if (current == null || current == Thread.currentThread()) {
            // From the listener itself: the loop ends after this excerpt; waiting for ourselves would only time out.
            return;
        }
        LockSupport.unpark(current);
        try {
            if (!current.join(settings.shutdownTimeout())) {
                log.warn("Listener '" + id() + "' did not finish its excerpt within " + settings.shutdownTimeout()
                        + "; its position stays before that excerpt");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        Thread current = thread;
        return running && current != null && current.isAlive();
    }

    @Override
    public boolean isAutoStartup() {
        return settings.autoStartup();
    }

    /**
     * Stops reading after the excerpt in hand; the thread stays and keeps the named tailer. When the container runs,
     * waits (up to the shutdown timeout) until its thread has taken the pause, so no excerpt is read after this
     * returns.
     */
    public void pause() {
        paused = true;
        Thread current = thread;
        if (current == null || current == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(current);
        long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
        while (current.isAlive() && state != ListenerState.PAUSED && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(PAUSE_CHECK_NANOS);
        }
    }

    /**
     * Reads again after {@link #pause()}. When the container runs, waits (up to the shutdown timeout) until its thread
     * has left the pause, so that the state reads {@link ListenerState#RUNNING} when this returns, as the actuator's
     * answer to a resume reports it.
     */
    public void resume() {
        paused = false;
        Thread current = thread;
        if (current == null || current == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(current);
        long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
        while (current.isAlive() && !paused && state == ListenerState.PAUSED && System.nanoTime() - deadline < 0) {
            LockSupport.unpark(current);
            LockSupport.parkNanos(PAUSE_CHECK_NANOS);
        }
    }

    /**
     * Moves the listener onto the excerpt with this index, so it is processed next. Runs on the container's thread
     * (now, or when it next starts); the new position is committed with the next excerpt processed.
     *
     * @return completes with false, leaving the position as it was, when the queue has no such excerpt
     */
    public CompletableFuture<Boolean> seekToIndex(long index) {
        return onContainerThread(tailer -> tailer.moveToIndex(index));
    }

    /** Moves the listener before the first excerpt of the queue; see {@link #seekToIndex(long)}. */
    public CompletableFuture<Boolean> seekToStart() {
        return onContainerThread(tailer -> {
            tailer.toStart();
            return true;
        });
    }

    /**
     * Moves the listener after the last excerpt, skipping everything not processed yet; see {@link #seekToIndex(long)}.
     */
    public CompletableFuture<Boolean> seekToEnd() {
        return onContainerThread(tailer -> {
            tailer.toEnd();
            return true;
        });
    }

    private CompletableFuture<Boolean> onContainerThread(Function<ExcerptTailer, Boolean> move) {
        CompletableFuture<Boolean> result = commands.add(move);
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
        return result;
    }

    private void run() {
        boolean failedRun = false;
        try (ExcerptTailer opened = ListenerTailers.open(queue, endpoint)) {
            tailer = opened;
            nextIndex = opened.index();
            events.started();
            failedRun = !poll(opened);
        } catch (RuntimeException | Error e) {
            log.error("Listener '" + id() + "' on queue '" + queueName() + "' stopped: " + e, e);
            failedRun = true;
        } finally {
            tailer = null;
            state = failedRun ? ListenerState.FAILED : ListenerState.STOPPED;
            running = false;
            events.stopped(state);
        }
    }

    /** @return false when an error handler asked to stop */
    private boolean poll(ExcerptTailer tailer) {
        IdleStrategy idle = settings.idleStrategy().get();
        InboundExcerpt excerpt = new InboundExcerpt(queueName(), id());
        Duration idleEventInterval = settings.idleEventInterval();
        boolean caughtUp = false;
        long lastWork = System.nanoTime();
        long lastIdleEvent = lastWork;
        while (running) {
            int work = runCommands();
            if (work > 0) {
                caughtUp = false;
            }
            // The state is set here, by the thread that reads, so PAUSED means no excerpt is read until resumed.
            if (paused) {
                changeState(ListenerState.PAUSED);
            } else {
                changeState(ListenerState.RUNNING);
                // A batch of excerpts between the housekeeping below (commands, lag, events): a busy listener then
                // pays it once per batch instead of once per excerpt.
                for (int batch = 0; batch < BATCH; batch++) {
                    int read = readOne(tailer, excerpt);
                    if (read < 0) {
                        return false;
                    }
                    if (read == 0) {
                        break;
                    }
                    work += read;
                    if (paused || !running) {
                        break;
                    }
                }
            }
            long now = System.nanoTime();
            if (work > 0) {
                lastWork = now;
                lastIdleEvent = now;
                caughtUp = false;
            } else if (!paused) {
                if (!caughtUp) {
                    caughtUp = true;
                    events.caughtUp(tailer.index());
                }
                if (idleEventInterval != null && now - lastIdleEvent >= idleEventInterval.toNanos()) {
                    lastIdleEvent = now;
                    events.idle(Duration.ofNanos(now - lastWork));
                }
            }
            idle.idle(work);
        }
        return true;
    }

    /** A volatile read per poll instead of a volatile write. */
    private void changeState(ListenerState next) {
        if (state != next) {
            state = next;
        }
    }

    private int runCommands() {
        int ran = commands.runAll(tailer);
        if (ran > 0) {
            publishPosition(tailer);
        }
        return ran;
    }

    /** @return 1 when an excerpt was handled, 0 when there was none, -1 when the container must stop */
    private int readOne(ExcerptTailer tailer, InboundExcerpt excerpt) {
        boolean stop = false;
        try (ReadContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return 0;
            }
            excerpt.reset(context);
            Outcome outcome = delivery.deliver(excerpt);
            if (outcome != Outcome.COMMIT) {
                context.rollbackOnClose();
                stop = outcome == Outcome.FAIL;
            }
        }
        publishPosition(tailer);
        return stop ? -1 : 1;
    }

    public String id() {
        return endpoint.id();
    }

    public String queueName() {
        return endpoint.queueName();
    }

    public MappedQueue queue() {
        return queue;
    }

    public ListenerEndpoint endpoint() {
        return endpoint;
    }

    public ListenerState state() {
        return state;
    }

    /** Excerpts the listener returned from (retried ones once). */
    public long processedCount() {
        return delivery.processed();
    }

    /** Excerpts whose retries were exhausted and that went to the error handler. */
    public long failedCount() {
        return delivery.failed();
    }

    /** Calls repeated after a failure. */
    public long retryCount() {
        return delivery.retries();
    }

    /** Calls of the listener method, failed ones included. */
    public long callCount() {
        return delivery.calls();
    }

    /** Time spent in the listener method, failed calls included. */
    public long processingNanos() {
        return delivery.processingNanos();
    }

    private void publishPosition(ExcerptTailer tailer) {
        NEXT_INDEX.setRelease(this, tailer.index());
    }

    /**
     * Excerpts between the listener's position and the end of the queue, counted when called: from the index the
     * container thread published after its last excerpt (or seek) to the last index of the queue at this moment.
     * 0 before the first start and once the queue is closed.
     */
    public long lag() {
        long next = nextIndex;
        if (next < 0) {
            return 0;
        }
        try {
            long last = queue.lastIndex();
            return last < next ? 0 : queue.countExcerpts(next, last + 1);
        } catch (QueueClosedException closed) {
            return 0;
        }
    }

    /** Index of the next excerpt the listener reads, as of its last excerpt or seek; -1 before its first start. */
    public long nextIndex() {
        return nextIndex;
    }

    public boolean isPaused() {
        return paused;
    }

    /** See {@link #PHASE}. */
    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public String toString() {
        return "QueueListenerContainer[" + id() + " on " + queueName() + ", " + state + "]";
    }
}
