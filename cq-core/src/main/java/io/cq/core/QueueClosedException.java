package io.cq.core;

/**
 * A queue, appender or tailer was used after it was closed. Every closed thing of cq reports its use with this
 * exception, naming what was closed and the queue it belonged to.
 */
public final class QueueClosedException extends QueueException {
    public QueueClosedException(String message) {
        super(message);
    }
}
