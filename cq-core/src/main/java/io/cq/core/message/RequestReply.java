package io.cq.core.message;

import io.cq.core.ExcerptAppender;

import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request and reply over queues (docs/messages.md, "Request and reply"): the {@link TextHeaders} that a request
 * and its reply carry, and how a responder writes a reply.
 *
 * <ul>
 *   <li>A <b>request</b> is a message excerpt (an object or a method-writer call) on the responder's queue with
 *       {@value #CORRELATION_ID}, an id no other request of any process shares, and {@value #REPLY_TO}, the name
 *       of the queue the requester reads replies from.</li>
 *   <li>A <b>reply</b> is an object message ({@link Messages#writeObject(ExcerptAppender, Object, TextHeaders)})
 *       on that queue with the request's {@value #CORRELATION_ID}.</li>
 *   <li>An <b>error reply</b> says that the responder failed: {@value #ERROR} (the exception's class),
 *       {@value #ERROR_MESSAGE} and {@value #ERROR_SOURCE} (who failed, e.g. a listener) beside the correlation id,
 *       and a text describing the failure as its object.</li>
 * </ul>
 *
 * A {@link ReplyReader} on the reply queue completes the requester's future with the reply. Thread-safe.
 */
public final class RequestReply {
    /** Header of requests and replies: the id that pairs a reply with its request. */
    public static final String CORRELATION_ID = "cq_correlation_id";
    /** Header of requests: the name of the queue to append the reply to. */
    public static final String REPLY_TO = "cq_reply_to";
    /** Header of error replies: the class name of the exception the responder failed with. */
    public static final String ERROR = "cq_error";
    /** Header of error replies: the exception's message, empty when it had none. */
    public static final String ERROR_MESSAGE = "cq_error_message";
    /** Header of error replies: what failed, e.g. {@code listener 'quotes' (Quoter.quote)}. */
    public static final String ERROR_SOURCE = "cq_error_source";

    /**
     * Random per process: with the counter behind it, ids are unique across the processes that share a reply
     * queue without any coordination, and cheaper to make than a random UUID per request.
     */
    private static final String PROCESS_PREFIX = UUID.randomUUID().toString();
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private RequestReply() {
    }

    /** A correlation id unique across processes: this process's random prefix and a counter. */
    public static String newCorrelationId() {
        return PROCESS_PREFIX + "-" + Long.toHexString(SEQUENCE.incrementAndGet());
    }

    /** The headers of a request: its correlation id and the queue its reply goes to. */
    public static TextHeaders requestHeaders(String correlationId, String replyTo) {
        return new TextHeaders().put(CORRELATION_ID, correlationId).put(REPLY_TO, replyTo);
    }

    /** The headers of a reply to the request with this correlation id. */
    public static TextHeaders replyHeaders(String correlationId) {
        return new TextHeaders().put(CORRELATION_ID, correlationId);
    }

    /**
     * The headers of an error reply: the correlation id, the error's class and message, and {@code source}.
     *
     * @param source what failed, named so that the requester's exception can say it (e.g. {@code listener 'x'})
     */
    public static TextHeaders errorReplyHeaders(String correlationId, String source, Throwable error) {
        return replyHeaders(correlationId).put(ERROR, error.getClass().getName())
                .put(ERROR_MESSAGE, Objects.requireNonNullElse(error.getMessage(), ""))
                .put(ERROR_SOURCE, source);
    }

    /**
     * The object of an error reply: a text a person reading the reply queue understands without the headers.
     * Requesters go by the headers and never decode it.
     */
    public static String errorText(String source, Throwable error) {
        return source + " failed: " + error;
    }

    /** Whether a reply's headers say that the responder failed. */
    public static boolean isError(TextHeaders headers) {
        return headers.get(ERROR) != null;
    }

    /** Appends {@code value} as the reply to the request with this correlation id, and returns its index. */
    public static long writeReply(ExcerptAppender appender, Object value, String correlationId) {
        return Messages.writeObject(appender, value, replyHeaders(correlationId));
    }

    /** Appends an error reply to the request with this correlation id, and returns its index. */
    public static long writeErrorReply(ExcerptAppender appender, String correlationId, String source,
                                       Throwable error) {
        return Messages.writeObject(appender, errorText(source, error),
                errorReplyHeaders(correlationId, source, error));
    }
}
