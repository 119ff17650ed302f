package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.internal.message.MethodReaders;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Configures a {@link MethodReader}: {@code tailer.methodReaderBuilder().handlers(a, b).history(true).build()}.
 *
 * <p>A handler is any object: the reader calls the methods declared by the interfaces it implements (those of
 * the JDK excepted). When several handlers have a method, each is called, in the order given.
 *
 * <p>Security: a document may name a class to instantiate only where a parameter type asks for it with
 * {@code @JsonTypeInfo(use = CLASS)}. The reader then instantiates only classes on its allow-list: those
 * reachable from the handler methods' parameter types (record components, fields, sealed subtypes,
 * {@code @JsonSubTypes}) and those added with {@link #allowTypes(Class[])}. Any other name is refused with a
 * {@link MessageDecodingException} naming it.
 */
public final class MethodReaderBuilder {
    private final ExcerptTailer tailer;
    private final List<Object> handlers = new ArrayList<>();
    private final List<Class<?>> allowedTypes = new ArrayList<>();
    private boolean history;

    public MethodReaderBuilder(ExcerptTailer tailer) {
        this.tailer = Objects.requireNonNull(tailer, "tailer");
    }

    /** Adds handlers. */
    public MethodReaderBuilder handlers(Object... handlers) {
        this.handlers.addAll(Arrays.asList(handlers));
        return this;
    }

    /** Adds types (and those reachable from them) that documents may name, e.g. subtypes found only at run time. */
    public MethodReaderBuilder allowTypes(Class<?>... types) {
        this.allowedTypes.addAll(Arrays.asList(types));
        return this;
    }

    /**
     * Fills {@link MessageHistory#current()} from each message, plus the time of this read, while its handler
     * runs, so that a method writer with a source id called from the handler carries the route on. Default off.
     */
    public MethodReaderBuilder history(boolean history) {
        this.history = history;
        return this;
    }

    /**
     * @throws IllegalArgumentException when there is no handler, a handler implements no interface, an interface
     *                                  overloads a method name, or a {@link BytesMessage} parameter type has no
     *                                  public no-argument constructor
     */
    public MethodReader build() {
        return MethodReaders.create(tailer, List.copyOf(handlers), List.copyOf(allowedTypes), history);
    }
}
