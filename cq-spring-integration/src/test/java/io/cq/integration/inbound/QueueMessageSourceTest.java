package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.integration.CqHeaders;
import io.cq.integration.Flows;
import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.QueueAdapterRegistry;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.IntegrationMessageHeaderAccessor;
import org.springframework.integration.acks.AcknowledgmentCallback;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.Pollers;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class QueueMessageSourceTest {
    @TempDir
    Path dir;

    @Test
    void shouldFeedAPolledFlowAndCommitEachExcerptWhenTheFlowReturns() {
        List<Message<?>> received = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("a");
            long last = queue.acquireAppender().writeText("b");
            try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                    .from(Cq.messageSource(queue).adapterId("polled"),
                    endpoint -> endpoint.poller(Pollers.fixedDelay(Duration.ofMillis(10))))
                    .handle((MessageHandler) received::add).get())) {
                await().until(() -> received.size() == 2);
                assertThat(received).extracting(message -> (Object) message.getPayload()).containsExactly("a", "b");
                assertThat(received.get(1).getHeaders()).containsEntry(CqHeaders.INDEX, last);
                QueueAdapterInfo info = new QueueAdapterRegistry(context).adapter("polled").orElseThrow();
                await().until(() -> info.namedTailerIndex() == last + 1 && info.processedCount() == 2);
                assertThat(info.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
            }
        }
    }

    @Test
    void shouldReceiveTheSameExcerptAgainUntilItIsAcceptedOrRejected() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("first");
            queue.acquireAppender().writeText("second");
            QueueMessageSource source = new QueueMessageSource(queue);
            source.setBeanName("manual");
            source.start();

            Message<Object> first = source.receive();
            assertThat(first.getPayload()).isEqualTo("first");
            callback(first).acknowledge(AcknowledgmentCallback.Status.REQUEUE);
            Message<Object> again = source.receive();
            assertThat(again.getPayload()).isEqualTo("first");
            assertThat(source.receive().getPayload()).as("not acknowledged yet").isEqualTo("first");
            callback(again).acknowledge(AcknowledgmentCallback.Status.ACCEPT);

            Message<Object> second = source.receive();
            assertThat(second.getPayload()).isEqualTo("second");
            callback(second).acknowledge(AcknowledgmentCallback.Status.REJECT);
            assertThat(source.receive()).isNull();
            assertThat(source.processedCount()).isEqualTo(1);
            assertThat(source.failedCount()).isEqualTo(2);
            source.stop();
            assertThat(queue.namedTailer("manual").orElseThrow().held()).isFalse();
        }
    }

    @Test
    void shouldRefuseToStartWithoutAnIdThatCanNameATailer() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> Flows.run(IntegrationFlow
                    .from(Cq.messageSource(queue),
                    endpoint -> endpoint.poller(Pollers.fixedDelay(Duration.ofMillis(10))))
                    .handle((MessageHandler) message -> { }).get()))
                    .hasStackTraceContaining("cq message source")
                    .hasStackTraceContaining("give it one with .id(");
        }
    }

    private static AcknowledgmentCallback callback(Message<?> message) {
        return message.getHeaders()
                .get(IntegrationMessageHeaderAccessor.ACKNOWLEDGMENT_CALLBACK, AcknowledgmentCallback.class);
    }
}
