package io.cq.integration;

import io.cq.core.message.RequestReply;

/**
 * Names of the headers the cq adapters set on the messages they produce. All start with {@value #PREFIX}, so a
 * header mapper or a filter can keep or drop them together.
 */
public final class CqHeaders {
    /** The prefix of every cq header. */
    public static final String PREFIX = "cq_";

    /** The queue the message was read from: its directory's name ({@code String}). */
    public static final String QUEUE = PREFIX + "queue";

    /**
     * The index of the excerpt the message was read from ({@code Long}): unique and increasing within one queue,
     * so a consumer downstream of a redelivery can recognise a duplicate by it.
     */
    public static final String INDEX = PREFIX + "index";

    /** The roll cycle of that excerpt ({@code Long}): days since the epoch for a daily queue, and so on. */
    public static final String CYCLE = PREFIX + "cycle";

    /**
     * A request's correlation id ({@code String}), which its reply carries too: set by the inbound gateway on the
     * requests it reads and by the request-reply gateway on the replies it produces (docs/messages.md, "Request
     * and reply").
     */
    public static final String CORRELATION_ID = RequestReply.CORRELATION_ID;

    /** The queue a request asks its reply to go to ({@code String}), on the requests the inbound gateway reads. */
    public static final String REPLY_TO = RequestReply.REPLY_TO;

    private CqHeaders() {
    }
}
