package io.cq.spring.support.micrometer;

import io.cq.core.message.TextHeaders;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The context of a {@link QueueObservation#LISTENER} observation. Its carrier is the headers of the excerpt being
 * handled, which Micrometer Tracing's propagating handler reads to continue the writer's trace; an excerpt without
 * them (raw text or bytes, or a message written outside a trace) starts a new one.
 */
public final class ExcerptReceiverContext extends ReceiverContext<TextHeaders> {
    private final String queueName;
    private final String listenerId;
    private final long index;

    public ExcerptReceiverContext(String queueName, String listenerId, long index, TextHeaders carrier) {
        super(TextHeaders::get);
        this.queueName = queueName;
        this.listenerId = listenerId;
        this.index = index;
        setCarrier(carrier);
        setRemoteServiceName("cq");
    }

    /** The name of the queue read. */
    public String queueName() {
        return queueName;
    }

    /** The id of the listener called. */
    public String listenerId() {
        return listenerId;
    }

    /** The index of the excerpt handled. */
    public long index() {
        return index;
    }
}
