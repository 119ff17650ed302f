package io.cq.integration.observation;

import io.cq.core.message.TextHeaders;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The context of a {@link QueueAdapterObservation#RECEIVE} observation. Its carrier is the headers of the excerpt,
 * which Micrometer Tracing's propagating handler reads to continue the writer's trace; an excerpt without them
 * starts a new one.
 */
public final class AdapterReceiverContext extends ReceiverContext<TextHeaders> implements AdapterObservationContext {
    private final String queueName;
    private final String adapterId;
    private final long index;

    public AdapterReceiverContext(String queueName, String adapterId, long index, TextHeaders carrier) {
        super(TextHeaders::get);
        this.queueName = queueName;
        this.adapterId = adapterId;
        this.index = index;
        setCarrier(carrier);
        setRemoteServiceName("cq");
    }

    public String queueName() {
        return queueName;
    }

    public String adapterId() {
        return adapterId;
    }

    public long index() {
        return index;
    }
}
