package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.inbound.QueueInboundGateway;
import org.springframework.integration.dsl.MessagingGatewaySpec;

import java.time.Duration;
import java.util.function.Supplier;

/** Configures a {@link QueueInboundGateway}; its {@code id} is also its named tailer's name. */
public final class QueueInboundGatewaySpec extends MessagingGatewaySpec<QueueInboundGatewaySpec, QueueInboundGateway> {

    QueueInboundGatewaySpec(MappedQueue queue) {
        super(new QueueInboundGateway(queue));
    }

    /** See {@link QueueInboundGateway#setPayloadType(Class)}. */
    public QueueInboundGatewaySpec payloadType(Class<?> payloadType) {
        this.target.setPayloadType(payloadType);
        return this;
    }

    /** See {@link QueueInboundGateway#setReplyQueues(MappedQueue...)}. */
    public QueueInboundGatewaySpec replyQueues(MappedQueue... replyQueues) {
        this.target.setReplyQueues(replyQueues);
        return this;
    }

    /** See {@link QueueInboundGateway#setStartPosition(StartPosition)}. */
    public QueueInboundGatewaySpec startPosition(StartPosition startPosition) {
        this.target.setStartPosition(startPosition);
        return this;
    }

    /** See {@link QueueInboundGateway#setIdleStrategy(Supplier)}. */
    public QueueInboundGatewaySpec idleStrategy(Supplier<IdleStrategy> idleStrategy) {
        this.target.setIdleStrategy(idleStrategy);
        return this;
    }

    /** See {@link QueueInboundGateway#setRedeliveryDelay(Duration)}. */
    public QueueInboundGatewaySpec redeliveryDelay(Duration redeliveryDelay) {
        this.target.setRedeliveryDelay(redeliveryDelay);
        return this;
    }

    /** See {@link QueueInboundGateway#setShutdownTimeout(Duration)}. */
    public QueueInboundGatewaySpec shutdownTimeout(Duration shutdownTimeout) {
        this.target.setShutdownTimeout(shutdownTimeout);
        return this;
    }
}
