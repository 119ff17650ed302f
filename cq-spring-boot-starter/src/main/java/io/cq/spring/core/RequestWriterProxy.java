package io.cq.spring.core;

import io.cq.core.MappedQueue;
import io.cq.core.message.TextHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The bean behind a {@link io.cq.spring.annotation.QueueWriter} interface with methods returning
 * {@code CompletableFuture<T>} (or {@code CompletionStage<T>}): each such call is a request (docs/spring-boot.md,
 * "Request/reply"), written as the method writer of the interface would write the call, plus the request headers, and
 * its future completes with the reply decoded as {@code T}. Other methods ({@code void}, or returning the interface)
 * append as usual.
 *
 * <p>cq's method writers implement only interfaces whose methods return {@code void} or the interface, so the
 * calls go through the interface's {@link RequestViews view}, which has the same methods returning {@code void}:
 * the messages are the same, and the method-writer rules stay as they are for everyone else. Thread-safe, like
 * {@link QueueWriterProxy}: each call borrows an appender from the queue's pool.
 */
final class RequestWriterProxy implements InvocationHandler {
    private final Class<?> type;
    private final Class<?> view;
    private final MappedQueue queue;
    private final String queueName;
    private final AppenderPool pool;
    private final ReplyReaders replies;
    private final String replyQueue;
    private final Duration timeout;
    /** The view's method for each method of the interface. */
    private final Map<Method, Method> viewMethods = new HashMap<>();
    /** The reply class of each method returning a future. */
    private final Map<Method, Class<?>> replyTypes;
    /** Observes each call as a send ({@code cq.send}) and puts the trace context beside the request headers. */
    private final @Nullable SendObservations observations;

    private RequestWriterProxy(Class<?> type, Map<Method, Class<?>> replyTypes, MappedQueue queue, String queueName,
                               AppenderPool pool, ReplyReaders replies, String replyQueue, Duration timeout,
                               @Nullable SendObservations observations) {
        this.observations = observations;
        this.replyTypes = replyTypes;
        this.type = type;
        this.view = RequestViews.of(type);
        this.queue = queue;
        this.queueName = queueName;
        this.pool = pool;
        this.replies = replies;
        this.replyQueue = replyQueue;
        this.timeout = timeout;
        for (Method method : RequestViews.messageMethods(type)) {
            viewMethods.put(method, RequestViews.viewMethod(view, method));
        }
    }

    /** Whether some method of the interface returns a future, so that calls of it are requests. */
    static boolean hasRequestMethods(Class<?> type) {
        return RequestViews.messageMethods(type).stream().anyMatch(RequestWriterProxy::returnsFuture);
    }

    private static boolean returnsFuture(Method method) {
        Class<?> returned = method.getReturnType();
        return returned == CompletableFuture.class || returned == CompletionStage.class;
    }

    /**
     * @param replies    the application's reply readers; null fails, naming what is missing
     * @param replyQueue the queue replies are read from, or null for the readers' default
     * @param timeout    how long each call waits for its reply, or null for the readers' default
     */
    static <T> T create(Class<T> type, MappedQueue queue, String queueName, AppenderPool pool,
                        @Nullable ReplyReaders replies, @Nullable String replyQueue, @Nullable Duration timeout,
                        @Nullable SendObservations observations) {
        if (replies == null) {
            throw new IllegalStateException(type.getName() + " has methods returning futures, which wait for "
                    + "replies, and there are no ReplyReaders to read them (the starter makes them)");
        }
        Map<Method, Class<?>> replyTypes = new HashMap<>();
        for (Method method : RequestViews.messageMethods(type)) {
            if (returnsFuture(method)) {
                replyTypes.put(method, replyType(method));
            }
        }
        RequestWriterProxy handler = new RequestWriterProxy(type, replyTypes, queue, queueName, pool, replies,
                replyQueue != null ? replyQueue : replies.defaultReplyQueue(),
                timeout != null ? timeout : replies.defaultTimeout(), observations);
        // Built once up front, so that an interface a method writer cannot implement fails at start-up.
        try (AppenderPool.Lease lease = pool.borrow()) {
            lease.methodWriter(handler.view);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(String.valueOf(e.getMessage()).replace(handler.view.getName(),
                    type.getName()), e);
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** {@code T} of {@code CompletableFuture<T>}: one class, which the reply decodes as. */
    private static Class<?> replyType(Method method) {
        ResolvableType reply = ResolvableType.forMethodReturnType(method).as(CompletionStage.class).getGeneric(0);
        Class<?> resolved = reply.resolve();
        if (resolved == null || reply.hasGenerics() || resolved == Void.class) {
            throw new IllegalArgumentException(method.getDeclaringClass().getName() + "." + method.getName()
                    + " returns " + method.getGenericReturnType().getTypeName() + ": a request's future completes with "
                    + "its reply decoded as one class, e.g. CompletableFuture<Quote>; for a collection, reply with a "
                    + "record holding it" + (resolved == Void.class ? " (and a listener returning nothing sends no "
                    + "reply at all)" : ""));
        }
        return resolved;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "QueueWriter " + type.getName() + " -> queue '" + queueName + "' (" + queue.path()
                        + "), replies from queue '" + replyQueue + "'";
            };
        }
        if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
        }
        Method viewMethod = viewMethods.get(method);
        Class<?> replyType = replyTypes.get(method);
        if (replyType == null) {
            write(viewMethod, args, null);
            // Fluent interfaces return the writer itself: hand back the proxy, which is safe to share.
            return method.getReturnType() == void.class ? null : proxy;
        }
        return replies.request(queueName, replyQueue, replyType, timeout, headers -> write(viewMethod, args, headers));
    }

    /** One call through the view's method writer on a borrowed appender, carrying {@code headers} if any. */
    private void write(Method viewMethod, @Nullable Object[] args, @Nullable TextHeaders headers) {
        try (AppenderPool.Lease lease = pool.borrow()) {
            TextHeaders carried = lease.headers();
            if (headers != null) {
                for (int i = 0; i < headers.size(); i++) {
                    carried.put(headers.name(i), headers.value(i));
                }
            }
            SendObservations.Send send = observations == null ? null : observations.start(queueName, carried);
            try {
                viewMethod.invoke(lease.methodWriter(view), args);
                if (send != null) {
                    send.appended(lease.appender().lastIndexAppended());
                }
            } catch (InvocationTargetException e) {
                if (send != null) {
                    send.failed(e.getCause());
                }
                throw e;
            } finally {
                if (send != null) {
                    send.stop();
                }
                carried.clear(); // the lease's next call, of any writer, carries none
            }
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause); // a writer's methods declare no checked exception
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + viewMethod, e);
        }
    }
}
