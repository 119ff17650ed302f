package io.cq.integration.inbound;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.core.message.Messages;
import io.cq.integration.CqHeaders;
import io.cq.integration.Flows;
import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import io.cq.integration.mapping.ExcerptConversionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.MessagingException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class QueueInboundChannelAdapterTest {
    @TempDir
    Path dir;

    private final List<Message<?>> received = new CopyOnWriteArrayList<>();
    private final MessageHandler collect = received::add;

    @Test
    void shouldSendEachExcerptWithQueueIndexAndCycleHeaders() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("quotes")).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            long first = appender.writeText("AAPL 189.25");
            long second = appender.writeText("MSFT 420.50");
            try (AbstractApplicationContext context = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("quotes-reader")).handle(collect).get())) {
                await().until(() -> received.size() == 2);
                assertThat(received).extracting(message -> (Object) message.getPayload())
                        .containsExactly("AAPL 189.25", "MSFT 420.50");
                Message<?> message = received.get(1);
                assertThat(message.getHeaders().get(CqHeaders.QUEUE)).isEqualTo("quotes");
                assertThat(message.getHeaders().get(CqHeaders.INDEX)).isEqualTo(second);
                assertThat(message.getHeaders().get(CqHeaders.CYCLE)).isEqualTo(queue.rollCycle().toCycle(second));
                assertThat(received.get(0).getHeaders().get(CqHeaders.INDEX)).isEqualTo(first);

                QueueAdapterInfo info = context.getBean("quotes-reader", QueueAdapterInfo.class);
                await().until(() -> info.namedTailerIndex() == second + 1);
                assertThat(info.lag()).isZero();
                assertThat(info.processedCount()).isEqualTo(2);
                assertThat(info.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
            }
        }
    }

    @Test
    void shouldDeliverAnExcerptAgainWhenTheFlowThrowsAndCommitOnlyWhenItReturns() {
        AtomicInteger attempts = new AtomicInteger();
        MessageHandler failTwice = message -> {
            if (attempts.incrementAndGet() <= 2) {
                throw new IllegalStateException("downstream not ready");
            }
            received.add(message);
        };
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long index = queue.acquireAppender().writeText("order-1");
            try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                    .from(Cq.inboundAdapter(queue).id("orders").redeliveryDelay(Duration.ofMillis(20)))
                    .handle(failTwice).get())) {
                QueueAdapterInfo info = context.getBean("orders", QueueAdapterInfo.class);
                await().until(() -> received.size() == 1);
                assertThat(attempts).hasValue(3);
                assertThat(info.failedCount()).isEqualTo(2);
                assertThat(info.processedCount()).isEqualTo(1);
                await().until(() -> info.namedTailerIndex() == index + 1);
            }
        }
    }

    @Test
    void shouldStopFailedWithoutCommittingWhenTheFlowThrowsAnErrorAndResumeFromThatExcerptWhenStarted() {
        AtomicInteger attempts = new AtomicInteger();
        MessageHandler errorOnce = message -> {
            if ("a".equals(message.getPayload()) && attempts.incrementAndGet() == 1) {
                throw new AssertionError("a flow's Error");
            }
            received.add(message);
        };
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            long a = appender.writeText("a");
            appender.writeText("b");
            try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                    .from(Cq.inboundAdapter(queue).id("orders")).handle(errorOnce).get())) {
                QueueAdapterInfo info = context.getBean("orders", QueueAdapterInfo.class);
                QueueInboundChannelAdapter adapter = context.getBean("orders", QueueInboundChannelAdapter.class);
                // Stopped, so that start() starts it again.
                await().until(() -> info.state() == QueueAdapterInfo.State.FAILED && !adapter.isRunning());
                assertThat(received).isEmpty();
                assertThat(info.failedCount()).isEqualTo(1);
                assertThat(info.namedTailerIndex()).as("the excerpt was not committed").isIn(-1L, a);

                adapter.start();

                await().until(() -> received.size() == 2);
                assertThat(received).extracting(message -> (Object) message.getPayload()).containsExactly("a", "b");
                assertThat(info.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
            }
        }
    }

    @Test
    void shouldStopFailedWhenTheQueueIsClosedUnderIt() {
        MappedQueue queue = MappedQueue.builder(dir).build();
        queue.acquireAppender().writeText("a");
        try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                .from(Cq.inboundAdapter(queue).id("orders")).handle(collect).get())) {
            QueueAdapterInfo info = context.getBean("orders", QueueAdapterInfo.class);
            await().until(() -> received.size() == 1);
            queue.close();
            await().until(() -> info.state() == QueueAdapterInfo.State.FAILED);
        }
    }

    @Test
    void shouldLetTheErrorFlowDecideBetweenCommitAndRedelivery() {
        AtomicInteger errorFlowCalls = new AtomicInteger();
        MessageHandler errorFlow = error -> {
            if (errorFlowCalls.incrementAndGet() == 1) {
                throw new IllegalStateException("dead-letter store down");
            }
            received.add(error);
        };
        MessageHandler alwaysFails = message -> {
            throw new IllegalStateException("poison for this flow");
        };
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long index = queue.acquireAppender().writeText("order-1");
            try (AbstractApplicationContext context = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("with-dlq").errorChannel("dlq")
                            .redeliveryDelay(Duration.ofMillis(20))).handle(alwaysFails).get(),
                    IntegrationFlow.from("dlq").handle(errorFlow).get())) {
                QueueAdapterInfo info = context.getBean("with-dlq", QueueAdapterInfo.class);
                await().until(() -> received.size() == 1);
                await().until(() -> info.namedTailerIndex() == index + 1);
                assertThat(errorFlowCalls).as("a failing error flow means delivery again").hasValue(2);
                assertThat(info.failedCount()).isEqualTo(1);
                assertThat(info.processedCount()).as("the error flow handled it").isEqualTo(1);
            }
        }
    }

    @Test
    void shouldResumeAfterRestartWithoutDeliveringCommittedExcerptsAgain() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("one");
            queue.acquireAppender().writeText("two");
            try (AbstractApplicationContext first = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("audit")).handle(collect).get())) {
                await().until(() -> received.size() == 2);
            }
            queue.acquireAppender().writeText("three");
            try (AbstractApplicationContext second = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("audit")).handle(collect).get())) {
                await().until(() -> received.size() == 3);
                await().during(Duration.ofMillis(200)).until(() -> received.size() == 3);
            }
            assertThat(received).extracting(message -> (Object) message.getPayload())
                    .containsExactly("one", "two", "three");
        }
    }

    @Test
    void shouldReadOnlyNewExcerptsTheFirstTimeWhenStartingAtTheEnd() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("history");
            try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                    .from(Cq.inboundAdapter(queue).id("live").startPosition(StartPosition.resumeOrEnd()))
                    .handle(collect).get())) {
                QueueAdapterInfo info = context.getBean("live", QueueAdapterInfo.class);
                await().until(() -> info.state() == QueueAdapterInfo.State.RUNNING);
                queue.acquireAppender().writeText("news");
                await().until(() -> received.size() == 1);
                assertThat(received.getFirst().getPayload()).isEqualTo("news");
            }
        }
    }

    @Test
    void shouldDecodeObjectsAsThePayloadType() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), new Trade("AAPL", 100, 189.25));
            try (AbstractApplicationContext context = Flows.run(IntegrationFlow
                    .from(Cq.inboundAdapter(queue).id("trades").payloadType(Trade.class)).handle(collect).get())) {
                await().until(() -> received.size() == 1);
                assertThat(received.getFirst().getPayload()).isEqualTo(new Trade("AAPL", 100, 189.25));
            }
        }
    }

    @Test
    void shouldSkipAnExcerptItCannotConvertOnceReportingItToTheErrorChannel() {
        List<Message<?>> errors = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long raw = queue.acquireAppender().writeText("not a trade");
            Messages.writeObject(queue.acquireAppender(), new Trade("MSFT", 5, 420.5));
            try (AbstractApplicationContext context = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("typed").payloadType(Trade.class)
                            .errorChannel("typedErrors")).handle(collect).get(),
                    IntegrationFlow.from("typedErrors").handle((MessageHandler) errors::add).get())) {
                await().until(() -> received.size() == 1 && errors.size() == 1);
                assertThat(received.getFirst().getPayload()).isEqualTo(new Trade("MSFT", 5, 420.5));
                MessagingException error = (MessagingException) errors.getFirst().getPayload();
                assertThat(error).isInstanceOf(ExcerptConversionException.class)
                        .hasMessageContaining("raw bytes or text");
                assertThat(((ExcerptConversionException) error).index()).isEqualTo(raw);
                QueueAdapterInfo info = context.getBean("typed", QueueAdapterInfo.class);
                assertThat(info.failedCount()).isEqualTo(1);
                await().during(Duration.ofMillis(200)).until(() -> errors.size() == 1);
            }
        }
    }

    @Test
    void shouldReadNothingWhilePausedAndCatchUpOnResume() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            try (AbstractApplicationContext context = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("pausable")).handle(collect).get())) {
                QueueInboundChannelAdapter adapter = context.getBean("pausable", QueueInboundChannelAdapter.class);
                adapter.pause();
                assertThat(adapter.state()).isEqualTo(QueueAdapterInfo.State.PAUSED);
                queue.acquireAppender().writeText("held");
                await().during(Duration.ofMillis(200)).until(() -> received.isEmpty());
                assertThat(adapter.lag()).isEqualTo(1);
                adapter.resume();
                await().until(() -> received.size() == 1);
                adapter.stop();
                assertThat(adapter.state()).isEqualTo(QueueAdapterInfo.State.STOPPED);
                assertThat(queue.namedTailer("pausable").orElseThrow().held()).isFalse();
            }
        }
    }

    @Test
    void shouldFinishTheExcerptInHandBeforeStoppingAndCommitIt() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MessageHandler slow = message -> {
            handling.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            received.add(message);
        };
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long index = queue.acquireAppender().writeText("in hand");
            try (AbstractApplicationContext context = Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("orderly")).handle(slow).get())) {
                QueueInboundChannelAdapter adapter = context.getBean("orderly", QueueInboundChannelAdapter.class);
                assertThat(handling.await(10, TimeUnit.SECONDS)).isTrue();
                CompletableFuture<Void> stopping = CompletableFuture.runAsync(adapter::stop);
                await().during(Duration.ofMillis(200)).until(() -> !stopping.isDone());
                release.countDown();
                stopping.get(10, TimeUnit.SECONDS);
                assertThat(received).hasSize(1);
                assertThat(queue.namedTailer("orderly").orElseThrow())
                        .satisfies(position -> assertThat(position.nextIndex()).isEqualTo(index + 1))
                        .satisfies(position -> assertThat(position.held()).isFalse());
            }
        }
    }

    @Test
    void shouldRefuseAnIdThatCannotNameATailer() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("orders in")).handle(collect).get()))
                    .isInstanceOf(BeanCreationException.class)
                    .rootCause().hasMessageContaining("tailer name 'orders in' is not valid");
            assertThatThrownBy(() -> Flows.run(
                    IntegrationFlow.from(Cq.inboundAdapter(queue).id("orders in")).handle(collect).get()))
                    .hasStackTraceContaining("give it one with .id(");
        }
    }
}
