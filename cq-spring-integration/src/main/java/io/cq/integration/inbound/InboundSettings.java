package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.mapping.ExcerptMessageConverter;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The settings the message-driven readers share (the inbound channel adapter, the inbound gateway), checked here
 * once so that both refuse the same values with the same message. Set before starting; read by the reading thread
 * after {@code start()}, which publishes them.
 */
final class InboundSettings {
    private final MappedQueue queue;
    private ExcerptMessageConverter converter;
    private StartPosition startPosition = StartPosition.resumeOrStart();
    private Supplier<IdleStrategy> idleStrategy = IdleStrategy::backoff;
    private Duration redeliveryDelay = Duration.ofSeconds(1);
    private Duration shutdownTimeout = Duration.ofSeconds(10);

    InboundSettings(MappedQueue queue) {
        this.queue = queue;
        this.converter = new ExcerptMessageConverter(queue, String.class);
    }

    void payloadType(Class<?> payloadType) {
        this.converter = new ExcerptMessageConverter(queue, Objects.requireNonNull(payloadType, "payloadType"));
    }

    void startPosition(StartPosition startPosition) {
        this.startPosition = Objects.requireNonNull(startPosition, "startPosition");
    }

    void idleStrategy(Supplier<IdleStrategy> idleStrategy) {
        this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy");
    }

    void redeliveryDelay(Duration redeliveryDelay) {
        this.redeliveryDelay = requireNotNegative(redeliveryDelay, "redeliveryDelay");
    }

    void shutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = requireNotNegative(shutdownTimeout, "shutdownTimeout");
    }

    private static Duration requireNotNegative(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + "=" + duration + " must not be negative");
        }
        return duration;
    }

    ExcerptMessageConverter converter() {
        return converter;
    }

    StartPosition startPosition() {
        return startPosition;
    }

    Supplier<IdleStrategy> idleStrategy() {
        return idleStrategy;
    }

    Duration redeliveryDelay() {
        return redeliveryDelay;
    }

    Duration shutdownTimeout() {
        return shutdownTimeout;
    }
}
