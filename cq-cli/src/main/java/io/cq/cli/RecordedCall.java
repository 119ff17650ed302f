package io.cq.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * A handler for a method reader that implements the {@code -r} interfaces and only remembers the last call, so the
 * tool can show it with the arguments decoded as the interface's own types.
 */
final class RecordedCall implements InvocationHandler {
    private Method method;
    private Object[] arguments;

    static Object handlerFor(List<Class<?>> interfaces, RecordedCall recorder) {
        return Proxy.newProxyInstance(interfaces.getFirst().getClassLoader(), interfaces.toArray(Class<?>[]::new),
                recorder);
    }

    @Override
    public Object invoke(Object proxy, Method called, Object[] args) {
        if (called.getDeclaringClass() == Object.class) {
            return switch (called.getName()) {
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "cq tail -r handler";
            };
        }
        method = called;
        arguments = args == null ? new Object[0] : args.clone();
        // Fluent writer interfaces return themselves; a reader ignores what handlers return.
        return called.getReturnType().isPrimitive() ? null : called.getReturnType().isInstance(proxy) ? proxy : null;
    }

    /** The call since the last {@link #clear()}, or null. */
    Method method() {
        return method;
    }

    Object[] arguments() {
        return arguments;
    }

    void clear() {
        method = null;
        arguments = null;
    }
}
