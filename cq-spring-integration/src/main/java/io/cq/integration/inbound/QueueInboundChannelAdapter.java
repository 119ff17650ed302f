package io.cq.integration.inbound;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.core.message.TextHeaders;
import io.cq.integration.CqHeaders;
import io.cq.integration.NamedTailers;
import io.cq.integration.ReadingQueueAdapter;
import io.cq.integration.mapping.ExcerptConversionException;
import io.cq.integration.mapping.ExcerptMessageConverter;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Tails a queue on its own thread with a named tailer (named after the adapter's id) and sends each excerpt,
 * converted by an {@link ExcerptMessageConverter}, to the output channel, with the {@link CqHeaders}.
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
public final class QueueInboundChannelAdapter extends MessageProducerSupport implements Pausable, ReadingQueueAdapter {
    private final MappedQueue queue;
    private ExcerptMessageConverter converter;
    private StartPosition startPosition = StartPosition.resumeOrStart();
    private Supplier<IdleStrategy> idleStrategy = IdleStrategy::backoff;
    private Duration redeliveryDelay = Duration.ofSeconds(1);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private ObservationRegistry observationRegistry;
    /** The reading thread's: the headers of the excerpt in hand. */
    private final TextHeaders carried = new TextHeaders();

    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean paused;
    private final TailerWorker worker = new TailerWorker("cq inbound channel adapter", logger);

    /** An adapter reading {@code queue} as {@code String} messages until told otherwise. */
    public QueueInboundChannelAdapter(MappedQueue queue) {
        this.queue = queue;
        this.converter = new ExcerptMessageConverter(queue, String.class);
    }

    /**
     * The payload type of the messages: {@code String} (the default), {@code byte[]}, or a type written with
     * {@code writeObject} (docs/spring-integration.md, "Payloads and headers"). Set before starting.
     */
    public void setPayloadType(Class<?> payloadType) {
        this.converter = new ExcerptMessageConverter(queue, payloadType);
    }

    /** Where to start reading (default: resume, or the start of the queue the first time). */
    public void setStartPosition(StartPosition startPosition) {
        this.startPosition = startPosition;
    }

    /** How the reading thread waits for new excerpts (default: {@link IdleStrategy#backoff()}). */
    public void setIdleStrategy(Supplier<IdleStrategy> idleStrategy) {
        this.idleStrategy = idleStrategy;
    }

    /** How long to wait before delivering again an excerpt whose flow threw (default 1 s). */
    public void setRedeliveryDelay(Duration redeliveryDelay) {
        this.redeliveryDelay = requireNotNegative(redeliveryDelay, "redeliveryDelay");
    }

    /** How long {@link #stop()} waits for the excerpt in hand (default 10 s); then the thread is interrupted. */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = requireNotNegative(shutdownTimeout, "shutdownTimeout");
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

    private static Duration requireNotNegative(Duration duration, String name) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + "=" + duration + " must not be negative");
        }
        return duration;
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
        worker.start(queue, adapterId(), startPosition, idleStrategy, "cq-inbound-" + adapterId(),
                tailer -> paused ? 0 : readOne(tailer), this::stop);
    }

    @Override
    protected void doStop() {
        worker.stop(shutdownTimeout);
    }

    /**
     * One excerpt: 1 when one was there (handled, skipped or rolled back), 0 when the queue had none. An
     * {@code Error} from the conversion or the flow rolls the excerpt back and ends the reading thread (FAILED):
     * closing the context would otherwise commit an excerpt nobody handled.
     */
    private int readOne(ExcerptTailer tailer) {
        try (ReadContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return 0;
            }
            try {
                return handle(context);
            } catch (Error e) {
                failed.incrementAndGet();
                context.rollbackOnClose();
                throw e;
            }
        }
    }

    private int handle(ReadContext context) {
        Message<?> message;
        try {
            message = converter.toMessage(context, carried);
        } catch (ExcerptConversionException e) {
            failed.incrementAndGet();
            reportUnconvertible(e);
            return 1;
        }
        try {
            if (observationRegistry == null) {
                sendMessage(message);
            } else {
                sendObserved(message, context.index());
            }
            processed.incrementAndGet();
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            worker.redeliverLater(context, e, redeliveryDelay);
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
    public long processedCount() {
        return processed.get();
    }

    @Override
    public long failedCount() {
        return failed.get();
    }

    /** The payload type of the messages this adapter sends. */
    public Class<?> payloadType() {
        return converter.payloadType();
    }
}
