package io.cq.core.message;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * No reply to a request arrived within its timeout. The request stays in its queue (a responder may still handle
 * it); a reply arriving later is ignored, and the request no longer takes any memory of the requester's.
 */
public final class ReplyTimeoutException extends TimeoutException {
    private final String correlationId;
    private final Duration timeout;

    public ReplyTimeoutException(String correlationId, Duration timeout, String message) {
        super(message);
        this.correlationId = correlationId;
        this.timeout = timeout;
    }

    /** The request's correlation id. */
    public String correlationId() {
        return correlationId;
    }

    /** How long the requester waited. */
    public Duration timeout() {
        return timeout;
    }
}
