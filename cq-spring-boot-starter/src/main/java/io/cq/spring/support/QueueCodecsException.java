package io.cq.spring.support;

import org.jspecify.annotations.Nullable;

/**
 * A queue that cq cannot open with its configured codecs or keys ({@code cq.queues.<name>.checksums},
 * {@code .compression}, {@code .encryption.*}): a key store that cannot be read, a key that is missing, or codecs
 * other than the queue was created with. Carries what the starter's failure analyzer shows instead of a stack
 * trace; it never holds a key or a password, so neither reaches a log.
 */
public final class QueueCodecsException extends RuntimeException {
    private final String queue;
    private final String property;
    private final String problem;
    private final String action;

    public QueueCodecsException(String queue, String property, String problem, String action,
                                @Nullable Throwable cause) {
        super("queue '" + queue + "' (" + property + "): " + problem, cause);
        this.queue = queue;
        this.property = property;
        this.problem = problem;
        this.action = action;
    }

    /** The queue's name, a key of {@code cq.queues}. */
    public String queue() {
        return queue;
    }

    /** The full name of the property to change, e.g. {@code cq.queues.orders.encryption.key-store-password}. */
    public String property() {
        return property;
    }

    /** What is wrong, in a sentence. */
    public String problem() {
        return problem;
    }

    /** How to fix it, in a sentence. */
    public String action() {
        return action;
    }
}
