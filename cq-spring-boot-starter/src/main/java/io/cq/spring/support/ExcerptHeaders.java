package io.cq.spring.support;

import io.cq.spring.annotation.Header;

/** Names of the headers a listener may ask for with {@link Header}, and that a {@code Message} carries. */
public final class ExcerptHeaders {
    /** The excerpt's index in its queue ({@code long}). */
    public static final String INDEX = "cq_index";
    /** The name of the queue the excerpt was read from ({@code String}). */
    public static final String QUEUE = "cq_queue";
    /** The id of the listener reading it ({@code String}). */
    public static final String LISTENER = "cq_listener";

    private ExcerptHeaders() {
    }
}
