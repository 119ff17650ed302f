package io.cq.core;

/** Base of the errors cq reports: each message says what happened, to which queue or file, and where. */
public class QueueException extends RuntimeException {
    public QueueException(String message) {
        super(message);
    }

    public QueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
