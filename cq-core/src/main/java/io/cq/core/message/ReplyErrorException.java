package io.cq.core.message;

/**
 * The responder to a request failed and said so in an error reply ({@link RequestReply#ERROR}): the requester's
 * future completes with this instead of waiting for its timeout. The message names what failed and how, e.g.
 * {@code listener 'quotes' (Quoter.quote) failed on request 5c1e...-2a: java.lang.IllegalStateException: no price}.
 */
public final class ReplyErrorException extends RuntimeException {
    private final String correlationId;
    private final String source;
    private final String errorType;
    private final String errorMessage;

    public ReplyErrorException(String correlationId, String source, String errorType, String errorMessage) {
        super(source + " failed on request " + correlationId + ": " + errorType
                + (errorMessage.isEmpty() ? "" : ": " + errorMessage));
        this.correlationId = correlationId;
        this.source = source;
        this.errorType = errorType;
        this.errorMessage = errorMessage;
    }

    /** The request's correlation id. */
    public String correlationId() {
        return correlationId;
    }

    /** What failed, as the responder named it ({@link RequestReply#ERROR_SOURCE}). */
    public String source() {
        return source;
    }

    /** The class name of the responder's exception. */
    public String errorType() {
        return errorType;
    }

    /** The message of the responder's exception; empty when it had none. */
    public String errorMessage() {
        return errorMessage;
    }
}
