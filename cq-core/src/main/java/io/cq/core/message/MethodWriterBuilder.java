package io.cq.core.message;

import io.cq.core.ExcerptAppender;

import java.util.Objects;

/**
 * Configures a method writer: {@code Messages.methodWriterBuilder(appender, OrderEvents.class).sourceId(1).build()}.
 *
 * <p>The writer's class is generated once per interface (a hidden class: no {@link java.lang.reflect.Proxy},
 * no boxing); each {@link #build()} makes a new, cheap instance bound to this builder's appender. A writer is
 * confined like its appender: one thread at a time. Threads that write the same interface each build one from
 * their own appender ({@code queue.acquireAppender()}).
 */
public final class MethodWriterBuilder<T> {
    private final ExcerptAppender appender;
    private final Class<T> type;
    private int sourceId;
    private Boolean history;
    private TextHeaders headers;

    public MethodWriterBuilder(ExcerptAppender appender, Class<T> type) {
        this.appender = Objects.requireNonNull(appender, "appender");
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Identifies the queue this writer appends to in message histories (any non-zero int, unique among the
     * queues of a system). Turns history on unless {@link #history(boolean)} says otherwise.
     */
    public MethodWriterBuilder<T> sourceId(int sourceId) {
        if (sourceId == 0) {
            throw new IllegalArgumentException("sourceId=0: 0 means no source; use any other int");
        }
        this.sourceId = sourceId;
        return this;
    }

    /**
     * Whether each message carries a {@link MessageHistory}: the route of the message being handled on the
     * writing thread, this writer's source, and the time of the write. Default: on when a source id is set.
     */
    public MethodWriterBuilder<T> history(boolean history) {
        this.history = history;
        return this;
    }

    /**
     * Writes the pairs {@code headers} holds with each message, after its arguments (none while it is empty): fill
     * it before a call, clear it after. The writer keeps the object, not a copy; both belong to the writer's thread.
     * Readers that do not ask for headers read the messages as if they had none.
     */
    public MethodWriterBuilder<T> headers(TextHeaders headers) {
        this.headers = Objects.requireNonNull(headers, "headers");
        return this;
    }

    /**
     * @throws IllegalArgumentException when the type is not an interface, overloads a method name, or has a
     *                                  method returning something other than void or the interface
     */
    public T build() {
        boolean withHistory = history != null ? history : sourceId != 0;
        return MessageEngines.engine().methodWriter(type, appender, withHistory, sourceId, headers);
    }
}
