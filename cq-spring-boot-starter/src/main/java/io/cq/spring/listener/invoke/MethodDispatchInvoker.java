package io.cq.spring.listener.invoke;

import io.cq.core.message.MethodReader;
import io.cq.core.message.MethodReaderBuilder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Hands each excerpt to a method-reader style listener: a bean implementing writer interfaces, whose method
 * named by the message is called with the decoded arguments (docs/messages.md). The container owns the read
 * context, so the excerpt is committed only after the call returns, as for method listeners.
 */
public final class MethodDispatchInvoker implements ListenerInvoker {
    private final MethodReader reader;

    private MethodDispatchInvoker(MethodReader reader) {
        this.reader = reader;
    }

    /**
     * @param interfaces the interfaces to dispatch; empty for every interface of the bean's class that is not the
     *                   JDK's or Spring's
     * @param where      the listener, for error messages
     */
    public static MethodDispatchInvoker create(Object bean, Class<?> type, Class<?>[] interfaces, String where) {
        List<Class<?>> dispatched = interfaces.length > 0 ? List.of(interfaces) : messageInterfaces(type);
        if (dispatched.isEmpty()) {
            throw new IllegalStateException(where + ": a class-level @QueueListener bean must implement the writer "
                    + "interface(s) whose calls it receives; " + type.getName() + " implements none");
        }
        try {
            return new MethodDispatchInvoker(MethodReaderBuilder.forDispatch()
                    .handler(bean, dispatched.toArray(Class<?>[]::new)).build());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ": " + e.getMessage(), e);
        }
    }

    private static List<Class<?>> messageInterfaces(Class<?> type) {
        Set<Class<?>> found = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Class<?> candidate : c.getInterfaces()) {
                String name = candidate.getName();
                if (!name.startsWith("java.") && !name.startsWith("javax.") && !name.startsWith("jdk.")
                        && !name.startsWith("org.springframework.")) {
                    found.add(candidate);
                }
            }
        }
        return new ArrayList<>(found);
    }

    @Override
    public void invoke(InboundExcerpt excerpt) {
        excerpt.rewind(); // a retry reads the excerpt from its start again
        reader.dispatch(excerpt.context());
    }

    /** Messages dispatched, and excerpts skipped because no interface method matched or they were no messages. */
    public MethodReader reader() {
        return reader;
    }
}
