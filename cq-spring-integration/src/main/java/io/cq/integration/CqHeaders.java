package io.cq.integration;

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

    private CqHeaders() {
    }
}
