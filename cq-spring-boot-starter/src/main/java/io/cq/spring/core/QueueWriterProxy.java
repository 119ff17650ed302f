package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The bean behind a {@link QueueWriter} interface: forwards each call to the calling thread's own method writer
 * of the queue (method writers, like appenders, belong to one thread).
 */
final class QueueWriterProxy implements InvocationHandler {
    private final Class<?> type;
    private final MappedQueue queue;
    private final String queueName;
    private final ThreadLocal<Object> writers;

    private QueueWriterProxy(Class<?> type, MappedQueue queue, String queueName) {
        this.type = type;
        this.queue = queue;
        this.queueName = queueName;
        this.writers = ThreadLocal.withInitial(() -> Messages.methodWriter(queue.acquireAppender(), type));
    }

    static <T> T create(Class<T> type, MappedQueue queue, String queueName) {
        // Built once up front, so that an interface a method writer cannot implement fails at start-up.
        Messages.methodWriter(queue.acquireAppender(), type);
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new QueueWriterProxy(type, queue, queueName)));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "QueueWriter " + type.getName() + " -> queue '" + queueName + "' (" + queue.path() + ")";
            };
        }
        Object result;
        try {
            result = method.invoke(writers.get(), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        // Fluent interfaces return the writer itself: hand back the proxy, which is safe to share.
        return result != null && type.isInstance(result) ? proxy : result;
    }
}
