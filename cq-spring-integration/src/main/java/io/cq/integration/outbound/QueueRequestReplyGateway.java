package io.cq.integration.outbound;

import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.core.message.ReplyReader;
import io.cq.core.message.ReplyTimeoutException;
import io.cq.core.message.RequestReply;
import io.cq.integration.AdapterCounts;
import io.cq.integration.AdapterIds;
import io.cq.integration.CqHeaders;
import io.cq.integration.QueueAdapter;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.integration.MessageTimeoutException;
import org.springframework.integration.handler.AbstractReplyProducingMessageHandler;
import org.springframework.integration.support.management.ManageableLifecycle;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.MessagingException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The outbound gateway of request/reply over queues (docs/spring-integration.md, "Request/reply gateways"):
 * appends each message's payload to the request queue as a request (an object message with the request headers
 * of docs/messages.md, "Request and reply") and produces the reply, read from the reply queue and decoded as the
 * reply payload type, as the message to its output channel. A {@code @QueueListener} returning a value, or a
 * {@code QueueInboundGateway} flow, in this process or another, answers it.
 *
 * <p>The reply message has the request's headers (as every reply-producing handler), the reply's
 * {@link CqHeaders#CORRELATION_ID} and its payload. No reply within the reply timeout is a
 * {@link MessageTimeoutException}; an error reply (the responder failed) a {@link MessageHandlingException}
 * whose cause, a {@link io.cq.core.message.ReplyErrorException}, names what failed and how. Synchronous by
 * default: the calling thread waits for the reply. With {@link #setAsync(boolean) async} the handler returns at once
 * and the reply, or the error, is sent from the reply reader's thread when it arrives.
 *
 * <p>The reply queue is read by one {@link ReplyReader}, opened by the first request, so placed before it; stopping
 * the handler closes it and fails the requests still waiting. Thread-safe: each thread appends with its own
 * appender.
 */
public final class QueueRequestReplyGateway extends AbstractReplyProducingMessageHandler
        implements ManageableLifecycle, DisposableBean, QueueAdapter {
    private final MappedQueue requestQueue;
    private final MappedQueue replyQueue;
    private final String requestQueueName;
    private String replyTo;
    private Class<?> replyPayloadType = Object.class;
    private Duration replyTimeout = Duration.ofSeconds(5);
    private String adapterId;
    private volatile boolean running = true;
    private ReplyReader reader;
    private final AdapterCounts counts = new AdapterCounts();

    /**
     * @param requestQueue the queue requests are appended to
     * @param replyQueue   the queue replies are read from
     */
    public QueueRequestReplyGateway(MappedQueue requestQueue, MappedQueue replyQueue) {
        this.requestQueue = requestQueue;
        this.replyQueue = replyQueue;
        this.requestQueueName = requestQueue.path().getFileName().toString();
        this.replyTo = replyQueue.path().getFileName().toString();
        setRequiresReply(true);
    }

    /**
     * The name put in each request's {@code cq_reply_to}: the name the responder knows the reply queue by (default:
     * the reply queue directory's name, which is its name in a cq Spring Boot application).
     */
    public void setReplyTo(String replyTo) {
        if (replyTo == null || replyTo.isEmpty()) {
            throw new IllegalArgumentException("replyTo must name the reply queue");
        }
        this.replyTo = replyTo;
    }

    /**
     * The class replies decode as, with the message layer's allow-list (default {@code Object}: text, numbers,
     * and records as maps).
     */
    public void setReplyPayloadType(Class<?> replyPayloadType) {
        this.replyPayloadType = replyPayloadType;
    }

    /** How long a request waits for its reply (default 5 s). */
    public void setReplyTimeout(Duration replyTimeout) {
        if (replyTimeout.isNegative() || replyTimeout.isZero()) {
            throw new IllegalArgumentException("replyTimeout=" + replyTimeout + " must be positive");
        }
        this.replyTimeout = replyTimeout;
    }

    /** The id under which monitoring lists this gateway (default: its bean name). */
    public void setAdapterId(String adapterId) {
        this.adapterId = adapterId;
    }

    @Override
    public String getComponentType() {
        return "cq:request-reply-gateway";
    }

    @Override
    protected Object handleRequestMessage(Message<?> requestMessage) {
        String[] correlationId = new String[1];
        CompletableFuture<?> reply;
        try {
            reply = reader().request("queue '" + requestQueueName + "'", replyPayloadType, replyTimeout, headers -> {
                correlationId[0] = headers.get(RequestReply.CORRELATION_ID);
                Messages.writeObject(requestQueue.acquireAppender(), requestMessage.getPayload(), headers);
            });
        } catch (RuntimeException e) {
            counts.countFailed();
            throw new MessageHandlingException(requestMessage, "cq request-reply gateway '" + adapterId()
                    + "' could not send the request to queue " + requestQueue.path() + ": " + e.getMessage(), e);
        }
        CompletableFuture<Object> replyMessage = reply.handle((payload, error) -> {
            if (error != null) {
                counts.countFailed();
                throw translate(requestMessage, unwrap(error));
            }
            counts.countProcessed();
            return getMessageBuilderFactory().withPayload(payload)
                    .setHeader(CqHeaders.CORRELATION_ID, correlationId[0]);
        });
        if (isAsync()) {
            return replyMessage;
        }
        try {
            return replyMessage.get();
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause(); // translated above
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MessageHandlingException(requestMessage, "interrupted while waiting for the reply", e);
        }
    }

    private MessagingException translate(Message<?> request, Throwable error) {
        String gateway = "cq request-reply gateway '" + adapterId() + "': ";
        if (error instanceof ReplyTimeoutException timeout) {
            return new MessageTimeoutException(request, gateway + timeout.getMessage(), timeout);
        }
        return new MessageHandlingException(request, gateway + error.getMessage(), error);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The reader of the reply queue, opened by the first request so that it is placed before it. */
    private synchronized ReplyReader reader() {
        if (!running) {
            throw new IllegalStateException("the gateway is stopped");
        }
        if (reader == null || !reader.isOpen()) {
            reader = ReplyReader.open(replyQueue, replyTo);
        }
        return reader;
    }

    @Override
    public synchronized void start() {
        running = true;
    }

    /** Closes the reply reader: requests still waiting fail (a {@code QueueClosedException} as the cause). */
    @Override
    public synchronized void stop() {
        running = false;
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        stop();
    }

    /** Requests waiting for their reply. */
    public synchronized int pendingCount() {
        return reader == null ? 0 : reader.pendingCount();
    }

    @Override
    public String adapterId() {
        if (adapterId != null) {
            return adapterId;
        }
        // Derived as every writer's is (docs/spring-integration.md, "Monitoring"), not Spring's generated name.
        return AdapterIds.writerId(getBeanName(), getComponentName(), getComponentType(), requestQueueName,
                "request-gateway");
    }

    @Override
    public Kind kind() {
        return Kind.OUTBOUND_HANDLER;
    }

    /** The queue requests are appended to. */
    @Override
    public MappedQueue queue() {
        return requestQueue;
    }

    @Override
    public State state() {
        return running && !requestQueue.isClosed() ? State.RUNNING : State.STOPPED;
    }

    /**
     * Processed: requests answered with a reply; failed: requests that could not be sent, timed out, or were answered
     * with an error reply.
     */
    @Override
    public AdapterCounts counts() {
        return counts;
    }
}
