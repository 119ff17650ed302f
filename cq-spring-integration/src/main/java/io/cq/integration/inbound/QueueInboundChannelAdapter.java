package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.core.message.TextHeaders;
import io.cq.integration.AdapterCounts;
import io.cq.integration.CqHeaders;
import io.cq.integration.NamedTailers;
import io.cq.integration.QueueAdapter;
import io.cq.integration.mapping.ExcerptConversionException;
import io.cq.integration.observation.AdapterReceiverContext;
import io.cq.integration.observation.DefaultAdapterReceiveObservationConvention;
import io.cq.integration.observation.QueueAdapterObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.integration.core.Pausable;
import org.springframework.integration.endpoint.MessageProducerSupport;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.ErrorMessage;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Tails a queue on its own thread with a named tailer (named after the adapter's id) and sends each excerpt,
 * converted by an {@link io.cq.integration.mapping.ExcerptMessageConverter}, to the output channel, with the
 * {@link CqHeaders}.
 *
 * <p><b>At least once.</b> The tailer's position is committed only after the send returns, that is after the
 * flow downstream of a direct channel has run. If the flow throws, the read is rolled back and the excerpt is
 * delivered again after {@link #setRedeliveryDelay(Duration) the redelivery delay}, until the flow accepts it.
 * With an error channel, the error flow decides: if it returns, the excerpt counts as handled; if it throws,
 * the excerpt is delivered again. An excerpt that cannot be converted is never redelivered (it would fail the
 * same way forever): it is counted as failed, sent to the error channel as an {@link ExcerptConversionException}
 * (or logged when there is none) and skipped.
 *
 * <p>{@link #pause()} and {@link #resume()} hold and release reading between two excerpts; {@link #stop()} lets
 * the excerpt in hand finish, waits up to {@link #setShutdownTimeout(Duration) the shutdown timeout} and releases
 * the tailer's name.
 *
 * <p>With an {@link ObservationRegistry} (set, or else the application context's), each excerpt goes through the
 * flow inside a {@code cq.adapter.receive} observation ({@link QueueAdapterObservation#RECEIVE}); with Micrometer
 * Tracing that is a consumer span continuing the trace whose context the excerpt carries (written by a traced
 * {@code QueueTemplate}, {@code @QueueWriter} or outbound adapter), or a new trace for an excerpt without one. The
 * flow downstream of a direct channel runs in it. Messages also carry the excerpt's trace headers
 * ({@code traceparent}, ...). Thread-safe.
 */
public final class QueueInboundChannelAdapter extends MessageProducerSupport implements Pausable, QueueAdapter {
    private final MappedQueue queue;
    private final InboundSettings settings;
    private ObservationRegistry observationRegistry;
    /** The reading thread's: the headers of the excerpt in hand. */
    private final TextHeaders carried = new TextHeaders();

    private final AdapterCounts counts = new AdapterCounts();
    private volatile boolean paused;
    private final TailerWorker worker = new TailerWorker("cq inbound channel adapter", logger);

    /** An adapter reading {@code queue} as {@code String} messages until told otherwise. */
    public QueueInboundChannelAdapter(MappedQueue queue) {
        this.queue = queue;
        this.settings = new InboundSettings(queue);
    }

    /**
     * The payload type of the messages: {@code String} (the default), {@code byte[]}, or a type written with
     * {@code writeObject} (docs/spring-integration.md, "Payloads and headers"). Set before starting.
     */
    public void setPayloadType(Class<?> payloadType) {
        settings.payloadType(payloadType);
    }

    /** Where to start reading (default: resume, or the start of the queue the first time). */
    public void setStartPosition(StartPosition startPosition) {
        settings.startPosition(startPosition);
    }

    /** How the reading thread waits for new excerpts (default: {@link IdleStrategy#backoff()}). */
    public void setIdleStrategy(Supplier<IdleStrategy> idleStrategy) {
        settings.idleStrategy(idleStrategy);
    }

    /** How long to wait before delivering again an excerpt whose flow threw (default 1 s; not negative). */
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

    /**
     * The registry that observes each excerpt's trip through the flow as {@code cq.adapter.receive} and, with
     * Micrometer Tracing, continues the writer's trace (default: the application context's
     * {@code ObservationRegistry}, if it has one). Independent of Spring Integration's own observation of message
     * producers ({@code registerObservationRegistry}). Set before starting.
     */
    public void setObservationRegistry(ObservationRegistry observationRegistry) {
        this.observationRegistry = observationRegistry;
    }

    @Override
    public String getComponentType() {
        return "cq:inbound-channel-adapter";
    }

    @Override
    protected void onInit() {
        super.onInit();
        NamedTailers.requireValidName(queue, adapterId(), "cq inbound channel adapter");
        if (observationRegistry == null && getBeanFactory() != null) {
            observationRegistry = getBeanFactory().getBeanProvider(ObservationRegistry.class).getIfUnique();
        }
        if (observationRegistry != null && observationRegistry.isNoop()) {
            observationRegistry = null;
        }
    }

    @Override
    protected void doStart() {
        worker.start(queue, adapterId(), settings.startPosition(), settings.idleStrategy(), "cq-inbound-" + adapterId(),
                tailer -> paused ? 0 : TailerWorker.readOne(tailer, counts, this::handle), this::stop);
    }

    @Override
    protected void doStop() {
        worker.stop(settings.shutdownTimeout());
    }

    /** One excerpt that was there: sent, skipped or rolled back; see {@link TailerWorker#readOne}. */
    private int handle(ReadContext context) {
        Message<?> message;
        try {
            message = settings.converter().toMessage(context, carried);
        } catch (ExcerptConversionException e) {
            counts.countFailed();
            reportUnconvertible(e);
            return 1;
        }
        try {
            if (observationRegistry == null) {
                sendMessage(message);
            } else {
                sendObserved(message, context.index());
            }
            counts.countProcessed();
        } catch (RuntimeException e) {
            counts.countFailed();
            worker.redeliverLater(context, e, settings.redeliveryDelay());
        }
        return 1;
    }

    private void sendObserved(Message<?> message, long index) {
        AdapterReceiverContext receive = new AdapterReceiverContext(queueName(), adapterId(), index, carried);
        Observation observation = QueueAdapterObservation.RECEIVE.observation(null,
                DefaultAdapterReceiveObservationConvention.INSTANCE, () -> receive, observationRegistry).start();
        try (Observation.Scope ignored = observation.openScope()) {
            sendMessage(message);
        } catch (RuntimeException | Error e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    private void reportUnconvertible(ExcerptConversionException e) {
        MessageChannel errorChannel = getErrorChannel();
        if (errorChannel == null) {
            logger.error(e, () -> "cq inbound channel adapter '" + adapterId() + "' skipped an excerpt: "
                    + e.getMessage());
            return;
        }
        try {
            getMessagingTemplate().send(errorChannel, new ErrorMessage(e, Map.of(CqHeaders.QUEUE, e.queueName(),
                    CqHeaders.INDEX, e.index())));
        } catch (RuntimeException errorFlowFailure) {
            logger.error(errorFlowFailure, () -> "cq inbound channel adapter '" + adapterId() + "' skipped an excerpt "
                    + "and its error flow failed too: " + e.getMessage());
        }
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public boolean isPaused() {
        return paused;
    }

    @Override
    public String adapterId() {
        return getComponentName();
    }

    @Override
    public Kind kind() {
        return Kind.INBOUND_CHANNEL_ADAPTER;
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
        if (!isRunning() || !worker.running()) {
            return State.STOPPED;
        }
        return paused ? State.PAUSED : State.RUNNING;
    }

    @Override
    public AdapterCounts counts() {
        return counts;
    }

    /** The payload type of the messages this adapter sends. */
    public Class<?> payloadType() {
        return settings.converter().payloadType();
    }
}
