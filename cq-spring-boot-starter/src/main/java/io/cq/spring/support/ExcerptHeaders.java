package io.cq.spring.support;

import io.cq.core.message.RequestReply;

/**
 * Names of the headers a listener may ask for with {@link io.cq.spring.annotation.Header}, and that a {@code Message}
 * carries.
 */
public final class ExcerptHeaders {
    /** The excerpt's index in its queue ({@code long}). */
    public static final String INDEX = "cq_index";
    /** The name of the queue the excerpt was read from ({@code String}). */
    public static final String QUEUE = "cq_queue";
    /** The id of the listener reading it ({@code String}). */
    public static final String LISTENER = "cq_listener";
    /**
     * A request's correlation id ({@code String}; null when the excerpt is no request), which its reply carries
     * (docs/messages.md, "Request and reply").
     */
    public static final String CORRELATION_ID = RequestReply.CORRELATION_ID;
    /** The queue a request asks its reply to go to ({@code String}; null when the excerpt is no request). */
    public static final String REPLY_TO = RequestReply.REPLY_TO;

    private ExcerptHeaders() {
    }
}
