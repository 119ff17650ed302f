package io.cq.integration.bridge;

import io.cq.integration.CqHeaders;
import org.junit.jupiter.api.Test;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;

import static org.assertj.core.api.Assertions.assertThat;

class IndexDeduplicatorTest {
    private final IndexDeduplicator deduplicator = new IndexDeduplicator();

    @Test
    void shouldAcceptIncreasingIndexesPerQueueAndDropRepeats() {
        assertThat(deduplicator.accept(from("a", 10))).isTrue();
        assertThat(deduplicator.accept(from("b", 5))).as("another queue has its own indexes").isTrue();
        assertThat(deduplicator.accept(from("a", 11))).isTrue();
        assertThat(deduplicator.accept(from("a", 11))).isFalse();
        assertThat(deduplicator.accept(from("a", 3))).isFalse();
        assertThat(deduplicator.duplicatesDropped()).isEqualTo(2);
        assertThat(deduplicator.highestIndex("a")).isEqualTo(11);
        assertThat(deduplicator.highestIndex("c")).isEqualTo(-1);
    }

    @Test
    void shouldDropWhatTheSeedSaysTheDestinationAlreadyHolds() {
        deduplicator.seed("a", 20);
        assertThat(deduplicator.accept(from("a", 20))).isFalse();
        assertThat(deduplicator.accept(from("a", 21))).isTrue();
    }

    @Test
    void shouldAcceptMessagesWithoutCqHeaders() {
        assertThat(deduplicator.accept(MessageBuilder.withPayload("plain").build())).isTrue();
        assertThat(deduplicator.accept(MessageBuilder.withPayload("plain").build())).isTrue();
    }

    private static Message<String> from(String queue, long index) {
        return MessageBuilder.withPayload("x").setHeader(CqHeaders.QUEUE, queue).setHeader(CqHeaders.INDEX, index)
                .build();
    }
}
