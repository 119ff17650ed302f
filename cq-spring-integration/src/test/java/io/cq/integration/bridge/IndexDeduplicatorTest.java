package io.cq.integration.bridge;

import io.cq.integration.CqHeaders;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.context.IntegrationFlowContext;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The deduplicator counts an index as delivered only once the handler it advises has returned. */
class IndexDeduplicatorTest {
    private final IndexDeduplicator deduplicator = new IndexDeduplicator();

    @Configuration
    @EnableIntegration
    static class Integration {
    }

    /** A flow whose handler, advised by the deduplicator, fails on the first try of the given index. */
    private static final class Flow implements AutoCloseable {
        final AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Integration.class);
        final List<Message<?>> appended = new ArrayList<>();
        final MessageChannel input;

        Flow(IndexDeduplicator deduplicator, long failOnce) {
            AtomicInteger failures = new AtomicInteger();
            IntegrationFlow flow = f -> f.handle(message -> {
                if (((Number) message.getHeaders().get(CqHeaders.INDEX)).longValue() == failOnce
                        && failures.getAndIncrement() == 0) {
                    throw new IllegalStateException("the append failed");
                }
                appended.add(message);
            }, endpoint -> endpoint.advice(deduplicator));
            input = context.getBean(IntegrationFlowContext.class).registration(flow).register().getInputChannel();
        }

        @Override
        public void close() {
            context.close();
        }
    }

    @Test
    void shouldDeliverIncreasingIndexesPerQueueAndDropRepeats() {
        try (Flow flow = new Flow(deduplicator, -1)) {
            for (Message<String> message : List.of(from("a", 10), from("b", 5), from("a", 11), from("a", 11),
                    from("a", 3))) {
                flow.input.send(message);
            }
            assertThat(flow.appended).extracting(m -> m.getHeaders().get(CqHeaders.INDEX))
                    .containsExactly(10L, 5L, 11L);
        }
        assertThat(deduplicator.duplicatesDropped()).isEqualTo(2);
        assertThat(deduplicator.highestIndex("a")).isEqualTo(11);
        assertThat(deduplicator.highestIndex("c")).isEqualTo(-1);
    }

    @Test
    void shouldDeliverAgainAMessageWhoseAppendFailed() {
        try (Flow flow = new Flow(deduplicator, 2)) {
            flow.input.send(from("a", 1));
            assertThatThrownBy(() -> flow.input.send(from("a", 2))).hasStackTraceContaining("the append failed");
            assertThat(deduplicator.highestIndex("a")).as("a failed append is not delivered").isEqualTo(1);
            flow.input.send(from("a", 2)); // Kafka's error handler delivers it again
            flow.input.send(from("a", 2)); // and a later duplicate is dropped
            assertThat(flow.appended).extracting(m -> m.getHeaders().get(CqHeaders.INDEX)).containsExactly(1L, 2L);
        }
        assertThat(deduplicator.duplicatesDropped()).isEqualTo(1);
    }

    @Test
    void shouldDropWhatTheSeedSaysTheDestinationAlreadyHolds() {
        deduplicator.seed("a", 20);
        assertThat(deduplicator.isDuplicate(from("a", 20))).isTrue();
        assertThat(deduplicator.isDuplicate(from("a", 21))).isFalse();
    }

    @Test
    void shouldPassMessagesWithoutCqHeaders() {
        Message<String> plain = MessageBuilder.withPayload("plain").build();
        deduplicator.delivered(plain);
        assertThat(deduplicator.isDuplicate(plain)).isFalse();
    }

    private static Message<String> from(String queue, long index) {
        return MessageBuilder.withPayload("x").setHeader(CqHeaders.QUEUE, queue).setHeader(CqHeaders.INDEX, index)
                .build();
    }
}
