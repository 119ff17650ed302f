package io.cq.spring.listener;

import io.cq.core.message.MessageDecodingException;
import io.cq.spring.listener.ListenerErrorHandler.Resolution;
import io.cq.spring.listener.invoke.InboundExcerpt;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Delivers one excerpt to a listener: calls it, retries with back-off while it throws, then lets the error handler
 * decide. Counts what happened. Used by the container's thread only; the counts may be read from any thread.
 */
final class ExcerptDelivery {
    private static final Log log = LogFactory.getLog(ExcerptDelivery.class);

    /** What becomes of the excerpt's position. */
    enum Outcome {
        /** Processed, or skipped by the error handler: commit past it. */
        COMMIT,
        /** The container is stopping during retries: leave it uncommitted, to be delivered again on the next start. */
        ROLLBACK,
        /** The error handler asked to stop (or failed): leave it uncommitted and stop the container. */
        FAIL
    }

    private final ListenerEndpoint endpoint;
    private final RetryPolicy retryPolicy;
    private final ListenerErrorHandler errorHandler;
    private final BooleanSupplier running;
    // Written by the container's thread only, read by monitoring from any thread: release stores, not atomic
    // read-modify-writes, which would cost a fenced instruction per excerpt.
    private long processed;
    private long failed;
    private long retries;
    private long calls;
    private long processingNanos;
    private long timedCalls;

    /** A power of two: one call in this many is timed. */
    private static final int TIMING_SAMPLE = 8;

    private static final VarHandle PROCESSED = field("processed");
    private static final VarHandle FAILED = field("failed");
    private static final VarHandle RETRIES = field("retries");
    private static final VarHandle CALLS = field("calls");
    private static final VarHandle PROCESSING_NANOS = field("processingNanos");
    private static final VarHandle TIMED_CALLS = field("timedCalls");

    private static VarHandle field(String name) {
        try {
            return MethodHandles.lookup().findVarHandle(ExcerptDelivery.class, name, long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    ExcerptDelivery(ListenerEndpoint endpoint, RetryPolicy retryPolicy, ListenerErrorHandler errorHandler,
                    BooleanSupplier running) {
        this.endpoint = endpoint;
        this.retryPolicy = retryPolicy;
        this.errorHandler = errorHandler;
        this.running = running;
    }

    Outcome deliver(InboundExcerpt excerpt) {
        for (int attempt = 1; ; attempt++) {
            // One call in TIMING_SAMPLE is timed: two clock reads per excerpt cost a fast listener a third of its
            // throughput on some machines; the total is scaled to every call (processingNanos()).
            boolean timed = (calls & (TIMING_SAMPLE - 1)) == 0;
            long start = timed ? System.nanoTime() : 0;
            try {
                endpoint.invoker().invoke(excerpt);
                recordCall(start, timed);
                PROCESSED.setRelease(this, processed + 1);
                return Outcome.COMMIT;
            } catch (Exception e) {
                recordCall(start, timed);
                // An excerpt that does not decode will not decode on a second try either: straight to recovery.
                if (attempt >= retryPolicy.maxAttempts() || e instanceof MessageDecodingException) {
                    FAILED.setRelease(this, failed + 1);
                    return recover(excerpt, e, attempt);
                }
                if (!pauseBeforeRetry(attempt)) {
                    return Outcome.ROLLBACK;
                }
                RETRIES.setRelease(this, retries + 1);
            }
        }
    }

    private Outcome recover(InboundExcerpt excerpt, Exception error, int attempts) {
        try {
            endpoint.invoker().retriesExhausted(excerpt, error);
        } catch (RuntimeException invokerError) {
            log.error("Listener '" + endpoint.id() + "' failed to report the failure of excerpt " + excerpt.index()
                    + " (an error reply?); the error handler decides about the excerpt all the same", invokerError);
        }
        FailedExcerpt failedExcerpt = new FailedExcerpt(endpoint.queueName(), endpoint.id(), excerpt.index(),
                excerpt.copyPayload(), attempts);
        try {
            return errorHandler.handle(failedExcerpt, error) == Resolution.SKIP ? Outcome.COMMIT : Outcome.FAIL;
        } catch (RuntimeException handlerError) {
            handlerError.addSuppressed(error);
            log.error("Listener '" + endpoint.id() + "': the error handler failed on excerpt " + excerpt.index()
                    + "; stopping on that excerpt", handlerError);
            return Outcome.FAIL;
        }
    }

    /** @return false when the container is stopping (the pause is cut short) */
    private boolean pauseBeforeRetry(int failedAttempt) {
        long deadline = System.nanoTime() + retryPolicy.pauseNanos(failedAttempt);
        for (long left = deadline - System.nanoTime(); left > 0 && running.getAsBoolean();
             left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        return running.getAsBoolean();
    }

    private void recordCall(long startNanos, boolean timed) {
        if (timed) {
            PROCESSING_NANOS.setRelease(this, processingNanos + (System.nanoTime() - startNanos));
            TIMED_CALLS.setRelease(this, timedCalls + 1);
        }
        CALLS.setRelease(this, calls + 1);
    }

    long processed() {
        return (long) PROCESSED.getAcquire(this);
    }

    long failed() {
        return (long) FAILED.getAcquire(this);
    }

    long retries() {
        return (long) RETRIES.getAcquire(this);
    }

    long calls() {
        return (long) CALLS.getAcquire(this);
    }

    long processingNanos() {
        long timed = (long) TIMED_CALLS.getAcquire(this);
        long nanos = (long) PROCESSING_NANOS.getAcquire(this);
        // the timed calls' total, scaled to every call
        return timed == 0 ? 0 : (long) ((double) nanos * calls() / timed);
    }
}
