package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;

/**
 * The bean behind a {@link io.cq.spring.annotation.QueueWriter} interface: forwards each call to a method writer on an
 * appender borrowed from the queue's {@link AppenderPool} for that call (method writers, like appenders, belong to one
 * thread at a time), so any number of threads, virtual ones included, share it without an appender each. With an
 * {@link ObservationRegistry} each call is observed as {@code cq.send} and its message carries the trace context.
 */
final class QueueWriterProxy implements InvocationHandler {
    private final Class<?> type;
    private final MappedQueue queue;
    private final String queueName;
    private final AppenderPool pool;
    private final @Nullable SendObservations observations;

    private QueueWriterProxy(Class<?> type, MappedQueue queue, String queueName, AppenderPool pool,
            @Nullable SendObservations observations) {
        this.type = type;
        this.queue = queue;
        this.queueName = queueName;
        this.pool = pool;
        this.observations = observations;
    }

    static <T> T create(Class<T> type, MappedQueue queue, String queueName, @Nullable ObservationRegistry registry) {
        return create(type, queue, queueName, new AppenderPool(queue), SendObservations.of(registry), null, null, null);
    }

    /**
     * A proxy of {@code type}; one whose methods return futures sends requests ({@link RequestWriterProxy}), with
     * these reply settings (null for the defaults of {@code replies}).
     */
    static <T> T create(Class<T> type, MappedQueue queue, String queueName, AppenderPool pool,
                        @Nullable SendObservations observations, @Nullable ReplyReaders replies,
                        @Nullable String replyQueue, @Nullable Duration timeout) {
        if (RequestWriterProxy.hasRequestMethods(type)) {
            return RequestWriterProxy.create(type, queue, queueName, pool, replies, replyQueue, timeout,
                    observations);
        }
        // Built once up front, so that an interface a method writer cannot implement fails at start-up.
        try (AppenderPool.Lease lease = pool.borrow()) {
            lease.methodWriter(type);
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new QueueWriterProxy(type, queue, queueName, pool, observations)));
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
        try (AppenderPool.Lease lease = pool.borrow()) {
            if (observations == null) {
                result = call(lease, method, args);
            } else {
                SendObservations.Send send = observations.start(queueName, lease.headers());
                try {
                    result = call(lease, method, args);
                    send.appended(lease.appender().lastIndexAppended());
                } catch (Throwable e) {
                    send.failed(e);
                    throw e;
                } finally {
                    send.stop();
                }
            }
        }
        // Fluent interfaces return the writer itself: hand back the proxy, which is safe to share.
        return result != null && type.isInstance(result) ? proxy : result;
    }

    private @Nullable Object call(AppenderPool.Lease lease, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(lease.methodWriter(type), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
