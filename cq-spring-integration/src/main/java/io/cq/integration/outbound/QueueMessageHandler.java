package io.cq.integration.outbound;

import io.cq.core.MappedQueue;
import io.cq.core.message.TextHeaders;
import io.cq.integration.AdapterCounts;
import io.cq.integration.AdapterIds;
import io.cq.integration.CqHeaders;
import io.cq.integration.QueueAdapter;
import io.cq.integration.mapping.MessageExcerptWriter;
import io.cq.integration.observation.AdapterSenderContext;
import io.cq.integration.observation.DefaultAdapterSendObservationConvention;
import io.cq.integration.observation.QueueAdapterObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.integration.handler.AbstractReplyProducingMessageHandler;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;


/**
 * Appends each message to a queue as one excerpt ({@link MessageExcerptWriter}: text, bytes, an object, or an
 * envelope with the kept headers). The excerpt is published when {@code handleMessage} returns, so a flow that
 * continues after it (or a caller waiting for the reply) knows the message is in the queue.
 *
 * <p>As a gateway ({@link #setReplyWithIndex(boolean)}) it replies with the excerpt's index as the payload
 * ({@code Long}) and the {@link CqHeaders} of the excerpt; as an adapter it replies with nothing. A failing
 * append (full disk, a payload the message layer cannot encode) appends nothing and throws a
 * {@link MessageHandlingException}.
 *
 * <p>With an {@link ObservationRegistry} (set, or else the application context's), each append is observed as
 * {@code cq.adapter.send} ({@link QueueAdapterObservation#SEND}); with Micrometer Tracing that is a producer span
 * whose trace context the excerpt carries when it is an object or an envelope, so that the inbound adapter reading
 * it continues the trace. Thread-safe: each thread appends with its own appender.
 */
public final class QueueMessageHandler extends AbstractReplyProducingMessageHandler implements QueueAdapter {
    private final MappedQueue queue;
    private final String queueName;
    private MessageExcerptWriter writer = new MessageExcerptWriter(new String[0], false);
    private boolean replyWithIndex;
    private String adapterId;
    private final AdapterCounts counts = new AdapterCounts();
    private ObservationRegistry observationRegistry;

    /** A one-way handler appending to {@code queue}, keeping no headers. */
    public QueueMessageHandler(MappedQueue queue) {
        this.queue = queue;
        this.queueName = queue.path().getFileName().toString();
    }

    /**
     * Headers to keep in the excerpt, by name with {@code *} wildcards (default: none, so excerpts are plain
     * text, bytes or objects that any cq reader understands).
     */
    public void setHeaderPatterns(String... patterns) {
        this.writer = new MessageExcerptWriter(patterns, false);
    }

    /**
     * The registry that observes each append as {@code cq.adapter.send} and, with Micrometer Tracing, puts the trace
     * context into the excerpt (default: the application context's {@code ObservationRegistry}, if it has one).
     * Independent of Spring Integration's own observation of handlers ({@code registerObservationRegistry}).
     */
    public void setObservationRegistry(ObservationRegistry observationRegistry) {
        this.observationRegistry = observationRegistry;
    }

    @Override
    protected void doInit() {
        super.doInit();
        if (observationRegistry == null && getBeanFactory() != null) {
            observationRegistry = getBeanFactory().getBeanProvider(ObservationRegistry.class).getIfUnique();
        }
        if (observationRegistry != null && observationRegistry.isNoop()) {
            observationRegistry = null;
        }
    }

    /** Reply with the index each message was written at (default false: a one-way adapter). */
    public void setReplyWithIndex(boolean replyWithIndex) {
        this.replyWithIndex = replyWithIndex;
        setRequiresReply(replyWithIndex);
    }

    /**
     * The id under which monitoring lists this handler. Without one: its bean name when the application named the
     * bean, else its endpoint's id when the application gave one, else {@code <flow>.<queue>-writer}
     * ({@code -gateway} for a gateway; {@link AdapterIds#writerId}).
     */
    public void setAdapterId(String adapterId) {
        this.adapterId = adapterId;
    }

    @Override
    public String getComponentType() {
        return replyWithIndex ? "cq:outbound-gateway" : "cq:outbound-channel-adapter";
    }

    @Override
    protected Object handleRequestMessage(Message<?> requestMessage) {
        long index;
        try {
            index = observationRegistry == null ? writer.write(queue.acquireAppender(), requestMessage)
                    : observedWrite(requestMessage);
        } catch (RuntimeException e) {
            counts.countFailed();
            throw new MessageHandlingException(requestMessage, "cq outbound adapter '" + adapterId()
                    + "' could not append to queue " + queue.path() + ": " + e.getMessage(), e);
        }
        counts.countProcessed();
        if (!replyWithIndex) {
            return null;
        }
        return getMessageBuilderFactory().withPayload(index)
                .setHeader(CqHeaders.QUEUE, queueName)
                .setHeader(CqHeaders.INDEX, index)
                .setHeader(CqHeaders.CYCLE, queue.rollCycle().toCycle(index));
    }

    private long observedWrite(Message<?> message) {
        TextHeaders carrier = writer.headers();
        AdapterSenderContext context = new AdapterSenderContext(queueName, adapterId(), carrier);
        Observation observation = QueueAdapterObservation.SEND.observation(null,
                DefaultAdapterSendObservationConvention.INSTANCE, () -> context, observationRegistry).start();
        try (Observation.Scope ignored = observation.openScope()) {
            long index = writer.write(queue.acquireAppender(), message);
            context.setIndex(index);
            return index;
        } catch (RuntimeException | Error e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
            carrier.clear();
        }
    }

    @Override
    public String adapterId() {
        if (adapterId != null) {
            return adapterId;
        }
        return AdapterIds.writerId(getBeanName(), getComponentName(), getComponentType(), queueName,
                replyWithIndex ? "gateway" : "writer");
    }

    @Override
    public Kind kind() {
        return Kind.OUTBOUND_HANDLER;
    }

    @Override
    public MappedQueue queue() {
        return queue;
    }

    @Override
    public State state() {
        return queue.isClosed() ? State.STOPPED : State.RUNNING;
    }

    @Override
    public AdapterCounts counts() {
        return counts;
    }
}
