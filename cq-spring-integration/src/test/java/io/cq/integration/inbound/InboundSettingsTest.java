package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The inbound channel adapter and the inbound gateway refuse the same settings, with the same message. */
class InboundSettingsTest {
    @TempDir
    Path dir;

    /** One endpoint's setters, each on a new endpoint over the queue. */
    record Endpoint(String name, BiConsumer<MappedQueue, Duration> redeliveryDelay,
                    BiConsumer<MappedQueue, Duration> shutdownTimeout,
                    BiConsumer<MappedQueue, StartPosition> startPosition,
                    BiConsumer<MappedQueue, Supplier<IdleStrategy>> idleStrategy,
                    BiConsumer<MappedQueue, Class<?>> payloadType) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Endpoint> endpoints() {
        return List.of(
                new Endpoint("inbound channel adapter",
                        (queue, delay) -> new QueueInboundChannelAdapter(queue).setRedeliveryDelay(delay),
                        (queue, timeout) -> new QueueInboundChannelAdapter(queue).setShutdownTimeout(timeout),
                        (queue, position) -> new QueueInboundChannelAdapter(queue).setStartPosition(position),
                        (queue, idle) -> new QueueInboundChannelAdapter(queue).setIdleStrategy(idle),
                        (queue, type) -> new QueueInboundChannelAdapter(queue).setPayloadType(type)),
                new Endpoint("inbound gateway",
                        (queue, delay) -> new QueueInboundGateway(queue).setRedeliveryDelay(delay),
                        (queue, timeout) -> new QueueInboundGateway(queue).setShutdownTimeout(timeout),
                        (queue, position) -> new QueueInboundGateway(queue).setStartPosition(position),
                        (queue, idle) -> new QueueInboundGateway(queue).setIdleStrategy(idle),
                        (queue, type) -> new QueueInboundGateway(queue).setPayloadType(type)));
    }

    @ParameterizedTest
    @MethodSource("endpoints")
    void shouldRefuseNegativeDurations(Endpoint endpoint) {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> endpoint.redeliveryDelay().accept(queue, Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("redeliveryDelay=PT-0.001S must not be negative");
            assertThatThrownBy(() -> endpoint.shutdownTimeout().accept(queue, Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("shutdownTimeout=PT-1S must not be negative");
        }
    }

    @ParameterizedTest
    @MethodSource("endpoints")
    void shouldRefuseMissingSettingsNamingThem(Endpoint endpoint) {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> endpoint.redeliveryDelay().accept(queue, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("redeliveryDelay");
            assertThatThrownBy(() -> endpoint.shutdownTimeout().accept(queue, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("shutdownTimeout");
            assertThatThrownBy(() -> endpoint.startPosition().accept(queue, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("startPosition");
            assertThatThrownBy(() -> endpoint.idleStrategy().accept(queue, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("idleStrategy");
            assertThatThrownBy(() -> endpoint.payloadType().accept(queue, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("payloadType");
        }
    }

    @ParameterizedTest
    @MethodSource("endpoints")
    void shouldAcceptZeroDurations(Endpoint endpoint) {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatNoException().isThrownBy(() -> {
                endpoint.redeliveryDelay().accept(queue, Duration.ZERO);
                endpoint.shutdownTimeout().accept(queue, Duration.ZERO);
            });
        }
    }
}
