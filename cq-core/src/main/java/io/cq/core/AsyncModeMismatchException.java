package io.cq.core;

/**
 * A queue was opened asking for async mode on when it was created without it, or off when it was created with it.
 * The mode is fixed when a queue is created, since every process on it must write the same way: through its async
 * buffer, or straight to its files. Nothing was opened.
 */
public final class AsyncModeMismatchException extends QueueException {
    private final boolean inForce;

    public AsyncModeMismatchException(String message, boolean inForce) {
        super(message);
        this.inForce = inForce;
    }

    /** Whether the queue is in async mode: what to ask for, or to leave unset. */
    public boolean asyncModeInForce() {
        return inForce;
    }
}
