package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.integration.outbound.QueueMessageHandler;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.integration.dsl.MessageHandlerSpec;

/**
 * Configures a {@link QueueMessageHandler}, one-way ({@code outboundAdapter}) or replying ({@code outboundGateway}).
 */
public final class QueueMessageHandlerSpec extends MessageHandlerSpec<QueueMessageHandlerSpec, QueueMessageHandler> {

    QueueMessageHandlerSpec(MappedQueue queue, boolean replyWithIndex) {
        this.target = new QueueMessageHandler(queue);
        this.target.setReplyWithIndex(replyWithIndex);
    }

    /** See {@link QueueMessageHandler#setAdapterId(String)}; the endpoint's id is set as usual, on the endpoint. */
    public QueueMessageHandlerSpec adapterId(String adapterId) {
        this.target.setAdapterId(adapterId);
        return this;
    }

    /** See {@link QueueMessageHandler#setHeaderPatterns(String...)}. */
    public QueueMessageHandlerSpec headerPatterns(String... patterns) {
        this.target.setHeaderPatterns(patterns);
        return this;
    }

    /** See {@link QueueMessageHandler#setObservationRegistry(ObservationRegistry)}. */
    public QueueMessageHandlerSpec observationRegistry(ObservationRegistry observationRegistry) {
        this.target.setObservationRegistry(observationRegistry);
        return this;
    }
}
