package io.cq.integration.observation;

import io.cq.core.message.TextHeaders;
import io.micrometer.observation.transport.SenderContext;

/**
 * The context of a {@link QueueAdapterObservation#SEND} observation. Its carrier is the headers the excerpt will
 * carry: Micrometer Tracing's propagating handler puts the trace context there when the observation starts.
 */
public final class AdapterSenderContext extends SenderContext<TextHeaders> implements AdapterObservationContext {
    private final String queueName;
    private final String adapterId;
    private long index = -1;

    public AdapterSenderContext(String queueName, String adapterId, TextHeaders carrier) {
        super(TextHeaders::put);
        this.queueName = queueName;
        this.adapterId = adapterId;
        setCarrier(carrier);
        setRemoteServiceName("cq");
    }

    public String queueName() {
        return queueName;
    }

    public String adapterId() {
        return adapterId;
    }

    /** The index of the excerpt appended, or -1 before it is (or when the append failed). */
    public long index() {
        return index;
    }

    public void setIndex(long index) {
        this.index = index;
    }
}
