package io.cq.spring.support;

import org.jspecify.annotations.Nullable;

/**
 * A queue property that cq cannot open a queue with. Carries what the starter's failure analyzer
 * shows instead of a stack trace: the property, its value, what is wrong and how to fix it.
 */
public final class InvalidQueuePropertyException extends RuntimeException {
    private final String property;
    private final String value;
    private final String problem;
    private final String action;

    public InvalidQueuePropertyException(String property, @Nullable Object value, String problem, String action,
            @Nullable Throwable cause) {
        super(property + "=" + value + ": " + problem, cause);
        this.property = property;
        this.value = String.valueOf(value);
        this.problem = problem;
        this.action = action;
    }

    /** The full property name, e.g. {@code cq.queues.orders.roll-cycle}. */
    public String property() {
        return property;
    }

    public String value() {
        return value;
    }

    /** What is wrong with the value, in a sentence. */
    public String problem() {
        return problem;
    }

    /** How to fix it, in a sentence. */
    public String action() {
        return action;
    }
}
