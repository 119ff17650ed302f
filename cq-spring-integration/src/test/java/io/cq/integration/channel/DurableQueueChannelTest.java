package io.cq.integration.channel;

import io.cq.core.MappedQueue;
import io.cq.integration.Flows;
import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.Pollers;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.PollableChannel;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DurableQueueChannelTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepMessagesNotYetReceivedAcrossARestartAndDeliverEachOnce() {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("orders-in").channel(Cq.durableChannel(queue).id("orders")).get())) {
            MessagingTemplate template = new MessagingTemplate();
            MessageChannel in = context.getBean("orders-in", MessageChannel.class);
            for (int i = 1; i <= 3; i++) {
                template.send(in, MessageBuilder.withPayload("order-" + i).setHeader("attempt", i).build());
            }
            PollableChannel orders = context.getBean("orders", PollableChannel.class);
            Message<?> first = orders.receive(1000);
            assertThat(first.getPayload()).isEqualTo("order-1");
            assertThat(first.getHeaders()).containsEntry("attempt", 1);
            assertThat(context.getBean("orders", QueueAdapterInfo.class).lag()).isEqualTo(2);
        }

        List<Message<?>> delivered = new CopyOnWriteArrayList<>();
        try (MappedQueue reopened = MappedQueue.builder(dir).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from(Cq.durableChannel(reopened).id("orders"))
                             .handle((MessageHandler) delivered::add,
                                     endpoint -> endpoint.poller(Pollers.fixedDelay(Duration.ofMillis(10))))
                             .get())) {
            await().until(() -> delivered.size() == 2);
            await().during(Duration.ofMillis(300)).until(() -> delivered.size() == 2);
            assertThat(delivered).extracting(message -> (Object) message.getPayload())
                    .containsExactly("order-2", "order-3");
            assertThat(delivered.get(1).getHeaders()).containsEntry("attempt", 3);
            DurableQueueChannel channel = context.getBean("orders", DurableQueueChannel.class);
            assertThat(channel.size()).isZero();
        }

        try (MappedQueue again = MappedQueue.builder(dir).build()) {
            DurableQueueChannel channel = new DurableQueueChannel(again);
            channel.setConsumerName("orders");
            assertThat(channel.receive(50)).as("nothing is delivered twice").isNull();
            channel.destroy();
        }
    }

    @Test
    void shouldTimeOutWhenEmpty() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            DurableQueueChannel channel = tradesChannel(queue);
            long start = System.nanoTime();
            assertThat(channel.receive(100)).isNull();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
            channel.destroy();
        }
    }

    @Test
    void shouldReturnPayloadsOfTheConfiguredType() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            DurableQueueChannel channel = tradesChannel(queue);
            channel.send(MessageBuilder.withPayload(new Trade("AAPL", 1, 2.5)).build());
            assertThat(channel.receive(0).getPayload()).isEqualTo(new Trade("AAPL", 1, 2.5));
            channel.destroy();
        }
    }

    @Test
    void shouldReturnRecordsAsMapsWithoutAPayloadType() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            DurableQueueChannel channel = tradesChannel(queue);
            channel.send(MessageBuilder.withPayload(new Trade("AAPL", 1, 2.5)).build());
            channel.destroy();

            DurableQueueChannel untyped = untypedChannel(queue);
            assertThat(untyped.receive(0).getPayload()).as("records come back as maps").isInstanceOf(Map.class);
            untyped.destroy();
        }
    }

    @Test
    void shouldReturnByteArrayAndTextPayloadsAsSentWithoutAPayloadType() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            DurableQueueChannel untyped = untypedChannel(queue);
            untyped.send(MessageBuilder.withPayload(new byte[] {4, 2}).build());
            untyped.send(MessageBuilder.withPayload("text").build());
            assertThat((byte[]) untyped.receive(0).getPayload()).containsExactly(4, 2);
            assertThat(untyped.receive(0).getPayload()).isEqualTo("text");
            untyped.destroy();
        }
    }

    private static DurableQueueChannel tradesChannel(MappedQueue queue) {
        DurableQueueChannel channel = new DurableQueueChannel(queue);
        channel.setConsumerName("trades");
        channel.setPayloadType(Trade.class);
        return channel;
    }

    private static DurableQueueChannel untypedChannel(MappedQueue queue) {
        DurableQueueChannel untyped = new DurableQueueChannel(queue);
        untyped.setConsumerName("anything");
        return untyped;
    }
}
