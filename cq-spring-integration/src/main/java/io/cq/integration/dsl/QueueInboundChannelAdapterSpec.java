package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.inbound.QueueInboundChannelAdapter;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.integration.dsl.MessageProducerSpec;

import java.time.Duration;
import java.util.function.Supplier;

/** Configures a {@link QueueInboundChannelAdapter}; its {@code id} is also its named tailer's name. */
public final class QueueInboundChannelAdapterSpec
        extends MessageProducerSpec<QueueInboundChannelAdapterSpec, QueueInboundChannelAdapter> {

    QueueInboundChannelAdapterSpec(MappedQueue queue) {
        super(new QueueInboundChannelAdapter(queue));
    }

    /** See {@link QueueInboundChannelAdapter#setPayloadType(Class)}. */
    public QueueInboundChannelAdapterSpec payloadType(Class<?> payloadType) {
        this.target.setPayloadType(payloadType);
        return this;
    }

    /** See {@link QueueInboundChannelAdapter#setStartPosition(StartPosition)}. */
    public QueueInboundChannelAdapterSpec startPosition(StartPosition startPosition) {
        this.target.setStartPosition(startPosition);
        return this;
    }

    /** See {@link QueueInboundChannelAdapter#setIdleStrategy(Supplier)}. */
    public QueueInboundChannelAdapterSpec idleStrategy(Supplier<IdleStrategy> idleStrategy) {
        this.target.setIdleStrategy(idleStrategy);
        return this;
    }

    /** See {@link QueueInboundChannelAdapter#setRedeliveryDelay(Duration)}. */
    public QueueInboundChannelAdapterSpec redeliveryDelay(Duration redeliveryDelay) {
        this.target.setRedeliveryDelay(redeliveryDelay);
        return this;
    }

    /** See {@link QueueInboundChannelAdapter#setShutdownTimeout(Duration)}. */
    public QueueInboundChannelAdapterSpec shutdownTimeout(Duration shutdownTimeout) {
        this.target.setShutdownTimeout(shutdownTimeout);
        return this;
    }

    /** See {@link QueueInboundChannelAdapter#setObservationRegistry(ObservationRegistry)}. */
    public QueueInboundChannelAdapterSpec observationRegistry(ObservationRegistry observationRegistry) {
        this.target.setObservationRegistry(observationRegistry);
        return this;
    }
}
