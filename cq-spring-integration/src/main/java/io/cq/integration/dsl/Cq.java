package io.cq.integration.dsl;

import io.cq.core.MappedQueue;

/**
 * Factory of the cq components for the Spring Integration Java DSL, in the style of {@code Kafka} and
 * {@code Files}:
 *
 * <pre>{@code
 * IntegrationFlow.from(Cq.inboundAdapter(trades).id("risk").payloadType(Trade.class))
 *         .handle(risk::onTrade)
 *         .get();
 *
 * IntegrationFlow.from("orders")
 *         .handle(Cq.outboundAdapter(orders).headerPatterns("trace*"))
 *         .get();
 * }</pre>
 */
public final class Cq {
    private Cq() {
    }

    /** A message-driven adapter that tails {@code queue} with a named tailer named after its id. */
    public static QueueInboundChannelAdapterSpec inboundAdapter(MappedQueue queue) {
        return new QueueInboundChannelAdapterSpec(queue);
    }

    /** A message source for polled flows, reading {@code queue} with a named tailer named after its id. */
    public static QueueMessageSourceSpec messageSource(MappedQueue queue) {
        return new QueueMessageSourceSpec(queue);
    }

    /** A one-way handler that appends each message to {@code queue}. */
    public static QueueMessageHandlerSpec outboundAdapter(MappedQueue queue) {
        return new QueueMessageHandlerSpec(queue, false);
    }

    /** A handler that appends each message to {@code queue} and replies with the index it was written at. */
    public static QueueMessageHandlerSpec outboundGateway(MappedQueue queue) {
        return new QueueMessageHandlerSpec(queue, true);
    }

    /**
     * A gateway that appends each message's payload to {@code requestQueue} as a request and produces its reply,
     * read from {@code replyQueue} (docs/spring-integration.md, "Request/reply gateways").
     */
    public static QueueRequestReplyGatewaySpec requestReplyGateway(MappedQueue requestQueue, MappedQueue replyQueue) {
        return new QueueRequestReplyGatewaySpec(requestQueue, replyQueue);
    }

    /**
     * A message-driven gateway that tails {@code queue} with a named tailer named after its id, sends each request
     * to its flow and appends the flow's reply to the queue the request names.
     */
    public static QueueInboundGatewaySpec inboundGateway(MappedQueue queue) {
        return new QueueInboundGatewaySpec(queue);
    }

    /** A pollable channel whose messages live in {@code queue} and survive restarts. */
    public static DurableQueueChannelSpec durableChannel(MappedQueue queue) {
        return new DurableQueueChannelSpec(queue);
    }
}
