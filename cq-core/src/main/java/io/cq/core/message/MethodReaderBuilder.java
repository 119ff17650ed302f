package io.cq.core.message;

import io.cq.core.ExcerptTailer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Configures a {@link MethodReader}: {@code Messages.methodReaderBuilder(tailer).handlers(a, b).history(true).build()}.
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
    private final Map<Object, List<Class<?>>> onlyInterfaces = new IdentityHashMap<>();
    private final List<Class<?>> allowedTypes = new ArrayList<>();
    private boolean history;

    public MethodReaderBuilder(ExcerptTailer tailer) {
        this.tailer = Objects.requireNonNull(tailer, "tailer");
    }

    private MethodReaderBuilder() {
        this.tailer = null;
    }

    /**
     * A builder for a reader without a tailer, which only {@link MethodReader#dispatch(io.cq.core.ReadContext)
     * dispatches} read contexts its caller opens: for containers that own the reading loop.
     */
    public static MethodReaderBuilder forDispatch() {
        return new MethodReaderBuilder();
    }

    /** Adds handlers. */
    public MethodReaderBuilder handlers(Object... handlers) {
        this.handlers.addAll(Arrays.asList(handlers));
        return this;
    }

    /**
     * Adds a handler that is called only for the methods of the given interfaces, whatever else it implements
     * (e.g. a framework bean that also implements lifecycle interfaces).
     */
    public MethodReaderBuilder handler(Object handler, Class<?>... interfaces) {
        handlers.add(Objects.requireNonNull(handler, "handler"));
        if (interfaces.length > 0) {
            onlyInterfaces.put(handler, List.of(interfaces));
        }
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
        return MessageEngines.engine().methodReader(tailer, List.copyOf(handlers), onlyInterfaces,
                List.copyOf(allowedTypes), history);
    }
}
