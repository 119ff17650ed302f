package io.cq.spring.listener;

/**
 * Decides what becomes of an excerpt whose retries are exhausted. Called on the listener's thread; while it runs,
 * the listener reads nothing else. Name a bean of this type in
 * {@link io.cq.spring.annotation.QueueListener#errorHandler()}, or choose a built-in one with
 * {@code cq.listener.recoverer}.
 */
@FunctionalInterface
public interface ListenerErrorHandler {

    /**
     * @return {@link Resolution#SKIP} to commit past the excerpt, {@link Resolution#STOP} to stop the container on
     *         it (it is read again after a restart). Throwing counts as STOP.
     */
    Resolution handle(FailedExcerpt excerpt, Exception error);

    /** What the container does after the handler returns. */
    enum Resolution {
        SKIP,
        STOP
    }
}
