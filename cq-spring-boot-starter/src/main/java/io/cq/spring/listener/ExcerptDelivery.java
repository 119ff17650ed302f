package io.cq.spring.listener;

import io.cq.core.message.MessageDecodingException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.cq.spring.listener.ListenerErrorHandler.Resolution;
import io.cq.spring.listener.invoke.InboundExcerpt;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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
    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong processingNanos = new AtomicLong();

    ExcerptDelivery(ListenerEndpoint endpoint, RetryPolicy retryPolicy, ListenerErrorHandler errorHandler,
                    BooleanSupplier running) {
        this.endpoint = endpoint;
        this.retryPolicy = retryPolicy;
        this.errorHandler = errorHandler;
        this.running = running;
    }

    Outcome deliver(InboundExcerpt excerpt) {
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                endpoint.invoker().invoke(excerpt);
                recordCall(start);
                processed.incrementAndGet();
                return Outcome.COMMIT;
            } catch (Exception e) {
                recordCall(start);
                // An excerpt that does not decode will not decode on a second try either: straight to recovery.
                if (attempt >= retryPolicy.maxAttempts() || e instanceof MessageDecodingException) {
                    failed.incrementAndGet();
                    return recover(excerpt, e, attempt);
                }
                if (!pauseBeforeRetry(attempt)) {
                    return Outcome.ROLLBACK;
                }
                retries.incrementAndGet();
            }
        }
    }

    private Outcome recover(InboundExcerpt excerpt, Exception error, int attempts) {
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

    private void recordCall(long startNanos) {
        processingNanos.addAndGet(System.nanoTime() - startNanos);
        calls.incrementAndGet();
    }

    long processed() {
        return processed.get();
    }

    long failed() {
        return failed.get();
    }

    long retries() {
        return retries.get();
    }

    long calls() {
        return calls.get();
    }

    long processingNanos() {
        return processingNanos.get();
    }
}
