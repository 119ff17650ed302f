package io.cq.integration.outbound;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.integration.CqHeaders;
import io.cq.integration.Flows;
import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.QueueAdapterRegistry;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class QueueMessageHandlerTest {
    @TempDir
    Path dir;

    @Test
    void shouldAppendTextBytesAndObjectsAsPlainExcerptsThatAnyTailerReads() {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("toQueue").handle(Cq.outboundAdapter(queue).adapterId("writer")).get())) {
            MessagingTemplate template = new MessagingTemplate();
            MessageChannel toQueue = context.getBean("toQueue", MessageChannel.class);
            template.send(toQueue, MessageBuilder.withPayload("AAPL 189.25").setHeader("trace", "t-1").build());
            template.send(toQueue, MessageBuilder.withPayload(new byte[] {1, 2, 3}).build());
            template.send(toQueue, MessageBuilder.withPayload(new Trade("MSFT", 5, 420.5)).build());

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("AAPL 189.25");
            assertThat(tailer.readBytes()).containsExactly(1, 2, 3);
            assertThat(Messages.readObject(tailer, Trade.class)).isEqualTo(new Trade("MSFT", 5, 420.5));
            assertThat(new QueueAdapterRegistry(context).adapter("writer")).get()
                    .extracting(QueueAdapterInfo::processedCount).isEqualTo(3L);
        }
    }

    @Test
    void shouldKeepTheSelectedHeadersInAnEnvelopeThatTheInboundAdapterRestores() {
        List<Message<?>> received = new CopyOnWriteArrayList<>();
        UUID correlation = UUID.randomUUID();
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("orders")).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("toQueue")
                             .handle(Cq.outboundAdapter(queue).headerPatterns("trace*", "priority", "correlationId"))
                             .get(),
                     IntegrationFlow.from(Cq.inboundAdapter(queue).id("orders-in").payloadType(Trade.class))
                             .handle((MessageHandler) received::add).get())) {
            new MessagingTemplate().send(context.getBean("toQueue", MessageChannel.class),
                    MessageBuilder.withPayload(new Trade("AAPL", 100, 189.25))
                            .setHeader("traceId", "abc")
                            .setHeader("priority", 7)
                            .setHeader("correlationId", correlation)
                            .setHeader("dropped", "not kept")
                            .build());

            await().until(() -> received.size() == 1);
            Message<?> message = received.getFirst();
            assertThat(message.getPayload()).isEqualTo(new Trade("AAPL", 100, 189.25));
            assertThat(message.getHeaders()).containsEntry("traceId", "abc").containsEntry("priority", 7)
                    .containsEntry("correlationId", correlation.toString())
                    .containsEntry(CqHeaders.QUEUE, "orders")
                    .doesNotContainKey("dropped");

            try (ReadContext excerpt = queue.createTailer().readingDocument()) {
                assertThat(Messages.toJson(excerpt))
                        .startsWith("{\"method\":\"springMessage\",\"arguments\":[{\"symbol\":"
                        + "\"AAPL\",\"quantity\":100,\"price\":189.25},{")
                        .contains("\"traceId\":\"abc\"", "\"priority\":7",
                        "\"correlationId\":\"" + correlation + "\"").doesNotContain("dropped");
            }
        }
    }

    @Test
    void shouldReplyWithTheIndexTheMessageWasWrittenAt() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("journal")).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("journal").handle(Cq.outboundGateway(queue)).get())) {
            MessagingTemplate template = new MessagingTemplate();
            MessageChannel journal = context.getBean("journal", MessageChannel.class);
            Message<?> first = template.sendAndReceive(journal, MessageBuilder.withPayload("first").build());
            Message<?> second = template.sendAndReceive(journal, MessageBuilder.withPayload("second").build());

            assertThat(first.getPayload()).isEqualTo(queue.firstIndex());
            assertThat(second.getPayload()).isEqualTo(queue.lastIndex());
            assertThat(second.getHeaders()).containsEntry(CqHeaders.INDEX, queue.lastIndex())
                    .containsEntry(CqHeaders.QUEUE, "journal");
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.moveToIndex((Long) second.getPayload())).isTrue();
            assertThat(tailer.readText()).isEqualTo("second");
        }
    }
}
