package io.cq.spring.listener.invoke;

import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.core.message.RequestReply;
import io.cq.core.message.TextHeaders;
import io.cq.spring.core.QueueTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A method-level listener that returns a value: each value is a reply (docs/spring-boot.md, "Request/reply"),
 * appended as an object message to the queue the request names ({@code cq_reply_to}) or, when it names none, to
 * the method's {@code @SendTo} queue, with the request's correlation id. {@code null} appends nothing; a
 * {@link CompletionStage} replies when it completes, from the thread that completes it.
 *
 * <p>A synchronous reply is appended before the call returns, so the request is committed only once its reply is
 * in the reply queue; an append that fails fails the call, which is retried like any other failure. When the
 * excerpt fails for the last time ({@link #retriesExhausted}), or a returned stage completes exceptionally, a
 * request carrying a correlation id gets an error reply naming the listener and the error. A value with nowhere
 * to go (no {@code cq_reply_to}, no {@code @SendTo}) or a reply queue this application does not have is logged,
 * once per listener (per queue), and dropped.
 *
 * <p>Called on the container's thread; the stages' replies may come from any thread.
 */
public final class ReplyingListenerInvoker implements ListenerInvoker {
    private static final Log log = LogFactory.getLog(ReplyingListenerInvoker.class);

    private final ListenerMethodInvoker delegate;
    private final QueueTemplate template;
    private final Set<String> queueNames;
    private final @Nullable String sendTo;
    private final String source;
    /** The request's headers, read on the container's thread. */
    private final TextHeaders request = new TextHeaders();
    private final AtomicBoolean warnedNowhere = new AtomicBoolean();
    private final Set<String> warnedUnknownQueues = ConcurrentHashMap.newKeySet();

    /**
     * @param sendTo     the queue of {@code @SendTo}, or null
     * @param listenerId the listener's id, for error replies and logs
     */
    public ReplyingListenerInvoker(ListenerMethodInvoker delegate, QueueTemplate template, @Nullable String sendTo,
                                   String listenerId) {
        this.delegate = delegate;
        this.template = template;
        this.queueNames = template.queueNames();
        this.sendTo = sendTo;
        this.source = "listener '" + listenerId + "' (" + delegate + ")";
    }

    @Override
    public void invoke(InboundExcerpt excerpt) throws Exception {
        Object result = delegate.call(excerpt);
        if (result == null) {
            return;
        }
        Reply reply = reply(excerpt);
        if (reply == null) {
            if (warnedNowhere.compareAndSet(false, true)) {
                log.warn(source + " returned a value for excerpt 0x" + Long.toHexString(excerpt.index())
                        + ", which names no reply queue (cq_reply_to), and the method has no @SendTo: its return "
                        + "values are dropped (logged once for this listener)");
            }
            return;
        }
        if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((value, error) -> replyLater(reply, value, error));
        } else {
            send(reply, result);
        }
    }

    /** Sends the error reply that a request carrying a correlation id waits for. */
    @Override
    public void retriesExhausted(InboundExcerpt excerpt, Exception error) {
        Reply reply = reply(excerpt);
        if (reply != null && reply.correlationId() != null) {
            sendError(reply, error);
        }
    }

    /** Where the reply to this excerpt goes, or null when nowhere. */
    private @Nullable Reply reply(InboundExcerpt excerpt) {
        String correlationId = null;
        String replyTo = null;
        try {
            if (Messages.readHeaders(excerpt.context(), request)) {
                correlationId = request.get(RequestReply.CORRELATION_ID);
                replyTo = request.get(RequestReply.REPLY_TO);
            }
        } catch (MessageDecodingException malformed) {
            // headers that cannot be read ask for nothing: the @SendTo queue, if any, gets the value
        }
        String queue = replyTo != null ? replyTo : sendTo;
        return queue == null ? null : new Reply(queue, correlationId);
    }

    private void send(Reply reply, Object value) {
        if (knows(reply.queue())) {
            TextHeaders headers = reply.correlationId() == null ? new TextHeaders()
                    : RequestReply.replyHeaders(reply.correlationId());
            template.append(reply.queue(), value, headers);
        }
    }

    private void sendError(Reply reply, Throwable error) {
        if (!knows(reply.queue())) {
            return;
        }
        try {
            template.append(reply.queue(), RequestReply.errorText(source, error),
                    RequestReply.errorReplyHeaders(reply.correlationId(), source, error));
        } catch (RuntimeException e) {
            log.error(source + " could not append the error reply to request " + reply.correlationId()
                    + " to queue '" + reply.queue() + "'; the requester will time out", e);
        }
    }

    private void replyLater(Reply reply, @Nullable Object value, @Nullable Throwable error) {
        try {
            if (error != null) {
                Throwable cause = unwrap(error);
                if (reply.correlationId() != null) {
                    sendError(reply, cause);
                } else {
                    log.error(source + " completed a reply with an error, and its request has no correlation id "
                            + "to report it with", cause);
                }
            } else if (value != null) {
                send(reply, value);
            }
        } catch (RuntimeException e) {
            log.error(source + " could not append its reply to queue '" + reply.queue() + "'", e);
        }
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Whether this application has the queue; a reply queue named by another process may be unknown here. */
    private boolean knows(String queue) {
        if (queueNames.contains(queue)) {
            return true;
        }
        if (warnedUnknownQueues.add(queue)) {
            log.warn(source + " cannot reply to queue '" + queue + "': no queue of that name is configured here "
                    + "(configure it under cq.queues with the path the requester reads); its replies are dropped "
                    + "(logged once per queue)");
        }
        return false;
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    /**
     * @param queue         the queue the reply goes to
     * @param correlationId the request's, or null for a value sent on with {@code @SendTo} alone
     */
    private record Reply(String queue, @Nullable String correlationId) {
    }
}
