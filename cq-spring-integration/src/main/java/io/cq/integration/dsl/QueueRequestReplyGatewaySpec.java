package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.integration.outbound.QueueRequestReplyGateway;
import org.springframework.integration.dsl.MessageHandlerSpec;

import java.time.Duration;

/** Configures a {@link QueueRequestReplyGateway} ({@code Cq.requestReplyGateway}). */
public final class QueueRequestReplyGatewaySpec
        extends MessageHandlerSpec<QueueRequestReplyGatewaySpec, QueueRequestReplyGateway> {

    QueueRequestReplyGatewaySpec(MappedQueue requestQueue, MappedQueue replyQueue) {
        this.target = new QueueRequestReplyGateway(requestQueue, replyQueue);
    }

    /** See {@link QueueRequestReplyGateway#setReplyPayloadType(Class)}. */
    public QueueRequestReplyGatewaySpec replyPayloadType(Class<?> replyPayloadType) {
        this.target.setReplyPayloadType(replyPayloadType);
        return this;
    }

    /** See {@link QueueRequestReplyGateway#setReplyTimeout(Duration)}. */
    public QueueRequestReplyGatewaySpec replyTimeout(Duration replyTimeout) {
        this.target.setReplyTimeout(replyTimeout);
        return this;
    }

    /** See {@link QueueRequestReplyGateway#setReplyTo(String)}. */
    public QueueRequestReplyGatewaySpec replyTo(String replyTo) {
        this.target.setReplyTo(replyTo);
        return this;
    }

    /** Produce the reply from the reply reader's thread instead of waiting for it on the caller's (default false). */
    public QueueRequestReplyGatewaySpec async(boolean async) {
        this.target.setAsync(async);
        return this;
    }

    /** See {@link QueueRequestReplyGateway#setAdapterId(String)}. */
    public QueueRequestReplyGatewaySpec adapterId(String adapterId) {
        this.target.setAdapterId(adapterId);
        return this;
    }
}
