package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.core.message.RequestReply;
import io.cq.core.message.TextHeaders;
import io.cq.integration.AdapterCounts;
import io.cq.integration.CqHeaders;
import io.cq.integration.NamedTailers;
import io.cq.integration.QueueAdapter;
import io.cq.integration.mapping.ExcerptConversionException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.integration.gateway.MessagingGatewaySupport;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Serves requests (docs/spring-integration.md, "Request/reply gateways"): tails a queue on its own thread with a
 * named tailer (named after the gateway's id), sends each excerpt, converted as by the inbound channel adapter
 * and with the request headers {@link CqHeaders#CORRELATION_ID} and {@link CqHeaders#REPLY_TO}, to its flow, and
 * appends the flow's reply to the queue the request names, with its correlation id, as an object message. A
 * {@code QueueTemplate.sendAndReceive}, a {@code @QueueWriter} future or a {@code QueueRequestReplyGateway}, in
 * this process or another, waits for it.
 *
 * <p><b>Failures.</b> A request whose flow throws (or that cannot be converted) is answered with an error reply
 * naming this gateway and the error, and committed: its requester learns of the failure at once (add a retry
 * advice to the flow to retry). An excerpt that is not a request (no correlation id) is delivered again after
 * the redelivery delay when its flow throws, as by the inbound channel adapter. A flow that produces no reply
 * sends nothing (the requester times out); a reply with nowhere to go (no {@code cq_reply_to}, or a queue this
 * gateway does not know) is logged once per queue and dropped. A reply is appended before the request is
 * committed. Reply queues are those given to {@link #setReplyQueues}, by directory name, then the
 * {@link MappedQueue} beans of the application, by bean name.
 *
 * <p>{@link #stop()} lets the excerpt in hand finish, waits up to the shutdown timeout and releases the tailer's
 * name. Thread-safe.
 */
public final class QueueInboundGateway extends MessagingGatewaySupport implements QueueAdapter {
    private final MappedQueue queue;
    private final InboundSettings settings;
    private final Map<String, MappedQueue> replyQueues = new ConcurrentHashMap<>();
    private final Set<String> warnedQueues = ConcurrentHashMap.newKeySet();

    private final AdapterCounts counts = new AdapterCounts();
    private final TailerWorker worker = new TailerWorker("cq inbound gateway", logger);

    /** A gateway serving the requests of {@code queue}, as {@code String} payloads until told otherwise. */
    public QueueInboundGateway(MappedQueue queue) {
        this.queue = queue;
        this.settings = new InboundSettings(queue);
    }

    /** The payload type of the requests (default {@code String}), as for the inbound channel adapter. */
    public void setPayloadType(Class<?> payloadType) {
        settings.payloadType(payloadType);
    }

    /** Which request to serve first (default: resume, or the start of the queue the first time). */
    public void setStartPosition(StartPosition startPosition) {
        settings.startPosition(startPosition);
    }

    /** How the reading thread waits for new requests (default: {@link IdleStrategy#backoff()}). */
    public void setIdleStrategy(Supplier<IdleStrategy> idleStrategy) {
        settings.idleStrategy(idleStrategy);
    }

    /**
     * How long to wait before delivering again an excerpt that is no request and whose flow threw (default 1 s; not
     * negative).
     */
    public void setRedeliveryDelay(Duration redeliveryDelay) {
        settings.redeliveryDelay(redeliveryDelay);
    }

    /**
     * How long {@link #stop()} waits for the excerpt in hand (default 10 s; not negative); then the thread is
     * interrupted.
     */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        settings.shutdownTimeout(shutdownTimeout);
    }

    /** Queues replies may go to, known by their directory's name (requests name them in {@code cq_reply_to}). */
    public void setReplyQueues(MappedQueue... queues) {
        for (MappedQueue replyQueue : queues) {
            replyQueues.put(replyQueue.path().getFileName().toString(), replyQueue);
        }
    }

    @Override
    public String getComponentType() {
        return "cq:inbound-gateway";
    }

    @Override
    protected void onInit() {
        super.onInit();
        NamedTailers.requireValidName(queue, adapterId(), "cq inbound gateway");
    }

    @Override
    protected void doStart() {
        super.doStart();
        // The reading thread's: the headers of the excerpt in hand.
        TextHeaders headers = new TextHeaders();
        worker.start(queue, adapterId(), settings.startPosition(), settings.idleStrategy(),
                "cq-inbound-gateway-" + adapterId(),
                tailer -> TailerWorker.readOne(tailer, counts, context -> serve(context, headers)), this::stop);
    }

    @Override
    protected void doStop() {
        worker.stop(settings.shutdownTimeout());
        super.doStop();
    }

    /** One excerpt that was there: answered, skipped or rolled back; see {@link TailerWorker#readOne}. */
    private int serve(ReadContext context, TextHeaders headers) {
        readRequestHeaders(context, headers);
        String correlationId = headers.get(RequestReply.CORRELATION_ID);
        String replyTo = headers.get(RequestReply.REPLY_TO);
        Message<?> request;
        try {
            request = withRequestHeaders(settings.converter().toMessage(context), correlationId, replyTo);
        } catch (ExcerptConversionException e) {
            counts.countFailed();
            logger.error(e, () -> "cq inbound gateway '" + adapterId() + "' skipped an excerpt: " + e.getMessage());
            replyError(correlationId, replyTo, e);
            return 1;
        }
        if (correlationId == null) {
            // No requester waits: the flow runs one way (sendAndReceive would wait the whole reply timeout for a
            // reply that never comes), and a reply it makes anyway has nowhere to go.
            long index = context.index();
            try {
                send(MessageBuilder.fromMessage(request).setReplyChannel((reply, timeout) -> {
                    warnOnce("(none)", "excerpt 0x" + Long.toHexString(index) + " names no reply queue");
                    return true;
                }).build());
                counts.countProcessed();
            } catch (RuntimeException e) {
                counts.countFailed();
                worker.redeliverLater(context, e, settings.redeliveryDelay());
            }
            return 1;
        }
        try {
            Message<?> reply = sendAndReceiveMessage(request);
            if (reply != null) {
                reply(replyTo, reply.getPayload(), RequestReply.replyHeaders(correlationId));
            }
            counts.countProcessed();
        } catch (RuntimeException e) {
            counts.countFailed();
            logger.warn(e, () -> "flow of cq inbound gateway '" + adapterId() + "' failed on request "
                    + correlationId + "; answering it with an error reply");
            replyError(correlationId, replyTo, cause(e));
        }
        return 1;
    }

    private static Message<?> withRequestHeaders(Message<?> message, String correlationId, String replyTo) {
        if (correlationId == null && replyTo == null) {
            return message;
        }
        MessageBuilder<?> builder = MessageBuilder.fromMessage(message);
        if (correlationId != null) {
            builder.setHeader(CqHeaders.CORRELATION_ID, correlationId);
        }
        if (replyTo != null) {
            builder.setHeader(CqHeaders.REPLY_TO, replyTo);
        }
        return builder.build();
    }

    private void readRequestHeaders(ReadContext context, TextHeaders headers) {
        try {
            if (!Messages.readHeaders(context, headers)) {
                headers.clear();
            }
        } catch (MessageDecodingException malformed) {
            headers.clear(); // unreadable headers ask for no reply; the payload may still convert
        }
    }

    /** The exception the flow threw, without Spring Integration's wrappers, for the requester to read. */
    private static Throwable cause(RuntimeException flowError) {
        Throwable cause = flowError;
        while (cause instanceof MessagingException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private void replyError(String correlationId, String replyTo, Throwable error) {
        if (correlationId == null) {
            return;
        }
        String source = "cq inbound gateway '" + adapterId() + "'";
        try {
            reply(replyTo, RequestReply.errorText(source, error),
                    RequestReply.errorReplyHeaders(correlationId, source, error));
        } catch (RuntimeException e) {
            logger.error(e, () -> source + " could not append the error reply to request " + correlationId);
        }
    }

    private void reply(String replyTo, Object payload, TextHeaders headers) {
        MappedQueue replyQueue = replyTo == null ? null : replyQueue(replyTo);
        if (replyQueue == null) {
            warnOnce(String.valueOf(replyTo), replyTo == null ? "a request names no reply queue"
                    : "no reply queue named '" + replyTo + "' is known (setReplyQueues, or a MappedQueue bean)");
            return;
        }
        Messages.writeObject(replyQueue.acquireAppender(), payload, headers);
    }

    private MappedQueue replyQueue(String name) {
        MappedQueue known = replyQueues.get(name);
        if (known != null) {
            return known;
        }
        BeanFactory beans = getBeanFactory();
        if (beans != null && beans.containsBean(name) && beans.isTypeMatch(name, MappedQueue.class)) {
            return beans.getBean(name, MappedQueue.class);
        }
        return null;
    }

    private void warnOnce(String key, String problem) {
        if (warnedQueues.add(key)) {
            logger.warn(() -> "cq inbound gateway '" + adapterId() + "' drops a reply: " + problem
                    + " (logged once)");
        }
    }

    @Override
    public String adapterId() {
        return getComponentName();
    }

    @Override
    public Kind kind() {
        return Kind.INBOUND_GATEWAY;
    }

    @Override
    public MappedQueue queue() {
        return queue;
    }

    @Override
    public State state() {
        if (worker.failure() != null) {
            return State.FAILED;
        }
        return isRunning() && worker.running() ? State.RUNNING : State.STOPPED;
    }

    /** Processed: excerpts whose flow returned (answered or not); failed: whose flow threw, or unconvertible. */
    @Override
    public AdapterCounts counts() {
        return counts;
    }

    /** The payload type of the requests this gateway sends. */
    public Class<?> payloadType() {
        return settings.converter().payloadType();
    }
}
