package io.cq.core;

/**
 * The thread was interrupted while it waited for the queue's write lock. Its interrupt status is set again, and
 * nothing was written.
 */
public final class QueueInterruptedException extends QueueException {
    public QueueInterruptedException(String message) {
        super(message);
    }
}
