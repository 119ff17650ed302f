package io.cq.spring.support.micrometer;

import io.cq.core.message.TextHeaders;
import io.micrometer.observation.transport.SenderContext;

/**
 * The context of a {@link QueueObservation#SEND} observation. Its carrier is the headers the excerpt will carry:
 * Micrometer Tracing's propagating handler puts the trace context there ({@code traceparent}, {@code tracestate},
 * {@code baggage}) when the observation starts, before the excerpt is written.
 */
public final class ExcerptSenderContext extends SenderContext<TextHeaders> {
    private final String queueName;
    private long index = -1;

    public ExcerptSenderContext(String queueName, TextHeaders carrier) {
        super(TextHeaders::put);
        this.queueName = queueName;
        setCarrier(carrier);
        setRemoteServiceName("cq");
    }

    /** The name of the queue appended to. */
    public String queueName() {
        return queueName;
    }

    /** The index of the excerpt appended, or -1 before it is (or when the append failed). */
    public long index() {
        return index;
    }

    public void setIndex(long index) {
        this.index = index;
    }
}
