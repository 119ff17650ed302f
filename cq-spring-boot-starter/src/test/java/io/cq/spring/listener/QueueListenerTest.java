package io.cq.spring.listener;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.spring.annotation.Header;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.boot.autoconfigure.CqAutoConfiguration;
import io.cq.spring.boot.autoconfigure.CqListenerAutoConfiguration;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.config.QueueListenerContainerFactory;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.event.ListenerCaughtUpEvent;
import io.cq.spring.event.ListenerContainerEvent;
import io.cq.spring.event.ListenerIdleEvent;
import io.cq.spring.event.ListenerStartedEvent;
import io.cq.spring.event.ListenerStoppedEvent;
import io.cq.spring.listener.invoke.InboundExcerpt;
import io.cq.spring.listener.invoke.ListenerArgumentResolver;
import io.cq.spring.support.ExcerptHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.messaging.Message;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class QueueListenerTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.durability=page-cache",
                        "cq.queues.orders-dlq.durability=page-cache", "cq.listener.retry.interval=1ms");
    }

    @Test
    void shouldDeliverExcerptsInOrderOnTheListenersOwnThread() {
        runner().withBean(TextListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            long first = template.appendText("orders", "one");
            template.appendText("orders", "two");
            template.appendText("orders", "three");
            TextListener listener = context.getBean(TextListener.class);
            QueueListenerContainer container = context.getBean(ListenerContainerRegistry.class).container("billing");
            // The container counts an excerpt once the method has returned: wait for that, not for the method.
            await().atMost(Duration.ofSeconds(10)).until(() -> container.processedCount() == 3);
            assertThat(listener.received).containsExactly("one@" + first + "@orders", "two@" + (first + 1) + "@orders",
                    "three@" + (first + 2) + "@orders");
            assertThat(listener.threads).containsOnly("cq-listener-billing");
            assertThat(container.state()).isEqualTo(ListenerState.RUNNING);
            assertThat(container.nextIndex()).isEqualTo(first + 3);
        });
    }

    @Test
    void shouldReportCurrentLagUnderABacklogWhileTheListenerIsSlow() {
        runner().withBean(GatedListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            GatedListener listener = context.getBean(GatedListener.class);
            QueueListenerContainer container = context.getBean(ListenerContainerRegistry.class).container("gated");
            template.appendText("orders", "first");
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.entered.get() == 1);
            // A backlog of 300 arrives while the listener is held inside its first excerpt: far fewer than the 256
            // excerpts of one batch are processed before the lag must show it.
            for (int i = 0; i < 300; i++) {
                template.appendText("orders", "backlog-" + i);
            }
            await().atMost(Duration.ofSeconds(1)).until(container::lag, lag -> lag == 301);
            for (int handled = 1; handled <= 5; handled++) {
                listener.gate.release();
                long expected = 301 - handled;
                await().atMost(Duration.ofSeconds(1)).until(container::lag, lag -> lag == expected);
            }
            listener.gate.release(1_000);
            await().atMost(Duration.ofSeconds(10)).until(container::lag, lag -> lag == 0);
            assertThat(container.processedCount()).isEqualTo(301);
        });
    }

    @Test
    void shouldResolveEveryParameterKind() {
        runner().withBean(EveryParameterListener.class).run(context -> {
            long index = context.getBean(QueueTemplate.class).appendText("orders", "payload");
            EveryParameterListener listener = context.getBean(EveryParameterListener.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 1);
            assertThat(listener.received.getFirst()).isEqualTo(List.of("payload", "payload", index, 7L, "payload",
                    index, "orders", "every"));
        });
    }

    @Test
    void shouldResolvePlaceholdersInQueueAndId() {
        runner().withPropertyValues("app.queue=orders", "app.listener=from-placeholder")
                .withBean(PlaceholderListener.class).run(context -> {
                    context.getBean(QueueTemplate.class).appendText("orders", "x");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> context.getBean(PlaceholderListener.class).received.size() == 1);
                    assertThat(context.getBean(ListenerContainerRegistry.class).container("from-placeholder")
                            .queueName())
                            .isEqualTo("orders");
                });
    }

    @Test
    void shouldResumeRightAfterTheLastProcessedExcerptInANewContext() {
        runner().withBean(TextListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            template.appendText("orders", "one");
            template.appendText("orders", "two");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> context.getBean(TextListener.class).received.size() == 2);
        });
        runner().withBean(TextListener.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "three");
            TextListener listener = context.getBean(TextListener.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 1);
            assertThat(listener.received.getFirst()).startsWith("three@");
        });
    }

    @Test
    void shouldRetryThenMoveTheExcerptToTheDeadLetterQueue() {
        runner().withPropertyValues("cq.listener.retry.max-attempts=3", "cq.listener.recoverer=dead-letter",
                "cq.listener.dead-letter-queue=orders-dlq").withBean(FailingListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            long poison = template.appendText("orders", "poison");
            template.appendText("orders", "fine");
            FailingListener listener = context.getBean(FailingListener.class);
            QueueListenerContainer container = context.getBean(ListenerContainerRegistry.class).container("failing");
            await().atMost(Duration.ofSeconds(10)).until(() -> container.processedCount() == 1);
            assertThat(listener.processed).containsExactly("fine");
            assertThat(listener.attempts).isEqualTo(3);
            assertThat(container.failedCount()).isEqualTo(1);
            assertThat(container.retryCount()).isEqualTo(2);
            try (ExcerptTailer dlq = context.getBean("orders-dlq", MappedQueue.class).createTailer();
                 ReadContext excerpt = dlq.readingDocument()) {
                assertThat(excerpt.isPresent()).isTrue();
                DeadLetter letter = DeadLetter.readFrom(excerpt.bytes());
                assertThat(letter.queue()).isEqualTo("orders");
                assertThat(letter.index()).isEqualTo(poison);
                assertThat(letter.listenerId()).isEqualTo("failing");
                assertThat(letter.exceptionClass()).isEqualTo(IllegalStateException.class.getName());
                assertThat(letter.exceptionMessage()).isEqualTo("cannot bill poison");
                assertThat(new String(letter.payload(), StandardCharsets.UTF_8)).isEqualTo("poison");
            }
        });
    }

    @Test
    void shouldStopOnTheFailedExcerptAndReportFailedWithTheStoppingRecoverer() {
        runner().withPropertyValues("cq.listener.retry.max-attempts=1", "cq.listener.recoverer=stop-container")
                .withBean(FailingListener.class).run(context -> {
                    QueueTemplate template = context.getBean(QueueTemplate.class);
                    long poison = template.appendText("orders", "poison");
                    template.appendText("orders", "fine");
                    QueueListenerContainer container = context.getBean(ListenerContainerRegistry.class)
                            .container("failing");
                    await().atMost(Duration.ofSeconds(10)).until(() -> container.state() == ListenerState.FAILED);
                    assertThat(container.isRunning()).isFalse();
                    assertThat(context.getBean(FailingListener.class).processed).isEmpty();
                    // The failed excerpt was not committed: the named tailer still points at it.
                    MappedQueue orders = context.getBean("orders", MappedQueue.class);
                    assertThat(orders.namedTailer("failing")).get()
                            .satisfies(position -> assertThat(position.nextIndex()).isIn(-1L, poison));
                });
    }

    @Test
    void shouldDeliverNothingWhilePausedUntilResumedAtRuntime() {
        runner().withBean(TextListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            TextListener listener = context.getBean(TextListener.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            template.appendText("orders", "one");
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 1);

            registry.pause("billing");
            assertThat(registry.container("billing").state()).isEqualTo(ListenerState.PAUSED);
            template.appendText("orders", "two");
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                    .until(() -> listener.received.size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.container("billing").lag() == 1);

            registry.resume("billing");
            assertThat(registry.container("billing").state()).isEqualTo(ListenerState.RUNNING);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 2);
        });
    }

    @Test
    void shouldSeekToAnIndexAtRuntime() {
        runner().withBean(TextListener.class).run(context -> {
            TextListener listener = context.getBean(TextListener.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            long first = appendOneTwoAndAwaitBoth(context);

            assertThat(registry.seekToIndex("billing", first).get(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 4);
            assertThat(listener.received).extracting(text -> text.substring(0, text.indexOf('@')))
                    .containsExactly("one", "two", "one", "two");
        });
    }

    @Test
    void shouldRefuseToSeekToAnIndexTheQueueDoesNotHold() {
        runner().withBean(TextListener.class).run(context -> {
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            long first = appendOneTwoAndAwaitBoth(context);

            assertThat(registry.seekToIndex("billing", first + 100).get(10, TimeUnit.SECONDS)).isFalse();
        });
    }

    @Test
    void shouldSeekToTheStartAtRuntime() {
        runner().withBean(TextListener.class).run(context -> {
            TextListener listener = context.getBean(TextListener.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            appendOneTwoAndAwaitBoth(context);

            assertThat(registry.seekToStart("billing").get(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 4);
        });
    }

    @Test
    void shouldSeekToTheEndAtRuntime() {
        runner().withBean(TextListener.class).run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            TextListener listener = context.getBean(TextListener.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            appendOneTwoAndAwaitBoth(context);
            assertThat(registry.seekToStart("billing").get(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 4);

            assertThat(registry.seekToEnd("billing").get(10, TimeUnit.SECONDS)).isTrue();
            template.appendText("orders", "three");
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 5);
            assertThat(listener.received.getLast()).startsWith("three@");
        });
    }

    /** Appends "one" and "two" to orders and waits until the billing listener has both; returns one's index. */
    private static long appendOneTwoAndAwaitBoth(ApplicationContext context) {
        QueueTemplate template = context.getBean(QueueTemplate.class);
        TextListener listener = context.getBean(TextListener.class);
        long first = template.appendText("orders", "one");
        template.appendText("orders", "two");
        await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 2);
        return first;
    }

    @Test
    void shouldPublishStartedCaughtUpOncePerTransitionAndStoppedEvents() {
        runner().withBean(TextListener.class).withUserConfiguration(EventRecorder.class).run(context -> {
            List<ListenerContainerEvent> events = context.getBean(EventRecorder.class).events;
            await().atMost(Duration.ofSeconds(10)).until(() -> count(events, ListenerCaughtUpEvent.class) == 1);
            assertThat(events.getFirst()).isInstanceOf(ListenerStartedEvent.class);
            QueueTemplate template = context.getBean(QueueTemplate.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            // Paused while both are appended, so that the listener is behind by two and catches up once.
            registry.pause("billing");
            template.appendText("orders", "one");
            long last = template.appendText("orders", "two");
            registry.resume("billing");
            await().atMost(Duration.ofSeconds(10)).until(() -> count(events, ListenerCaughtUpEvent.class) == 2);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                    .until(() -> count(events, ListenerCaughtUpEvent.class) == 2);
            assertThat(((ListenerCaughtUpEvent) events.stream().filter(ListenerCaughtUpEvent.class::isInstance)
                    .reduce((a, b) -> b).orElseThrow()).nextIndex()).isEqualTo(last + 1);
            registry.stop("billing");
            assertThat(events.getLast()).isInstanceOfSatisfying(ListenerStoppedEvent.class,
                    stopped -> {
                        assertThat(stopped.reason()).isEqualTo(ListenerStoppedEvent.Reason.STOPPED);
                        assertThat(stopped.listenerId()).isEqualTo("billing");
                        assertThat(stopped.getContainer(QueueListenerContainer.class))
                                .isSameAs(registry.container("billing"));
                        assertThatThrownBy(() -> stopped.getContainer(String.class))
                                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("billing");
                    });
        });
    }

    @Test
    void shouldPublishIdleEventsAtTheConfiguredInterval() {
        runner().withPropertyValues("cq.listener.idle-event-interval=50ms").withBean(TextListener.class)
                .withUserConfiguration(EventRecorder.class).run(context -> {
                    List<ListenerContainerEvent> events = context.getBean(EventRecorder.class).events;
                    await().atMost(Duration.ofSeconds(10)).until(() -> count(events, ListenerIdleEvent.class) >= 2);
                    assertThat(events.stream().filter(ListenerIdleEvent.class::isInstance)
                            .map(ListenerIdleEvent.class::cast)
                            .toList().getLast().idleFor()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
                });
    }

    @Test
    void shouldStartAtTheEndOrAtAnIndexWithoutACommittedPosition() {
        long second;
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).build()) {
            orders.acquireAppender().writeText("old-1");
            second = orders.acquireAppender().writeText("old-2");
        }
        runner().withBean(FromEndAndIndexListeners.class)
                .withPropertyValues("cq.listener.auto-startup=false", "test.start-index=0x" + Long.toHexString(second))
                .run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            FromEndAndIndexListeners listeners = context.getBean(FromEndAndIndexListeners.class);
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            assertThat(registry.container("from-end").state()).isEqualTo(ListenerState.CREATED);
            registry.start("from-end");
            registry.start("from-index");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.container("from-end").nextIndex() == second + 1);
            template.appendText("orders", "new");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> listeners.fromEnd.size() == 1 && listeners.fromIndex.size() == 2);
            assertThat(listeners.fromEnd).containsExactly("new");
            assertThat(listeners.fromIndex).containsExactly("old-2", "new");
        });
    }

    @Test
    void shouldStartAtTheCycleOfTheStartTime() {
        Instant dayOne = Instant.parse("2026-01-01T10:00:00Z");
        Instant dayTwo = Instant.parse("2026-01-02T10:00:00Z");
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).clock(Clock.fixed(dayOne, ZoneOffset.UTC))
                .build()) {
            orders.acquireAppender().writeText("day-1");
        }
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).clock(Clock.fixed(dayTwo, ZoneOffset.UTC))
                .build()) {
            orders.acquireAppender().writeText("day-2");
        }
        runner().withPropertyValues("test.start-time=2026-01-02T00:00:00Z").withBean(FromTimeListener.class)
                .run(context -> {
            FromTimeListener listener = context.getBean(FromTimeListener.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 1);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                    .until(() -> listener.received.size() == 1);
            assertThat(listener.received).containsExactly("day-2");
        });
    }

    @Test
    void shouldStopListenersBeforeClosingTheQueuesWhenTheContextCloses() {
        SlowListener[] listener = new SlowListener[1];
        runner().withBean(SlowListener.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "in hand at shutdown");
            listener[0] = context.getBean(SlowListener.class);
            assertThat(listener[0].entered.await(10, TimeUnit.SECONDS)).isTrue();
        });
        assertThat(listener[0].finished).containsExactly("in hand at shutdown");
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).build()) {
            assertThat(orders.namedTailer("slow").orElseThrow().nextIndex()).isEqualTo(orders.lastIndex() + 1);
        }
    }

    @Test
    void shouldUseApplicationArgumentResolversBeforeTheBuiltInOnes() {
        runner().withBean(UpperCaseResolver.class).withBean(UpperCaseListener.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "shout");
            UpperCaseListener listener = context.getBean(UpperCaseListener.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 1);
            assertThat(listener.received).containsExactly("SHOUT");
        });
    }

    @Test
    void shouldRunAListenerRegisteredWithoutTheAnnotation() {
        runner().run(context -> {
            List<String> received = new CopyOnWriteArrayList<>();
            ListenerEndpoint endpoint = new ListenerEndpoint("programmatic", "orders",
                    excerpt -> received.add(excerpt.text() + "@" + excerpt.index()), null, "", "",
                    StartPosition.Kind.START, -1, null);
            QueueListenerContainer container = context.getBean("queueListenerContainerFactory",
                    QueueListenerContainerFactory.class)
                    .createContainer(endpoint, context.getBean("orders", MappedQueue.class));
            context.getBean(ListenerContainerRegistry.class).register(container);
            long index = context.getBean(QueueTemplate.class).appendText("orders", "dispatched");
            await().atMost(Duration.ofSeconds(10)).until(() -> container.processedCount() == 1);
            assertThat(received).containsExactly("dispatched@" + index);
        });
    }

    @Test
    void shouldFinishTheExcerptInHandWhenStopped() {
        runner().withBean(SlowListener.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "slow");
            SlowListener listener = context.getBean(SlowListener.class);
            assertThat(listener.entered.await(10, TimeUnit.SECONDS)).isTrue();
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            registry.stop("slow");
            assertThat(listener.finished).hasSize(1);
            assertThat(registry.container("slow").state()).isEqualTo(ListenerState.STOPPED);
            assertThat(registry.container("slow").processedCount()).isEqualTo(1);
            long committed = context.getBean("orders", MappedQueue.class).namedTailer("slow").orElseThrow().nextIndex();
            assertThat(committed).isEqualTo(context.getBean("orders", MappedQueue.class).lastIndex() + 1);
        });
    }

    @Test
    void shouldFailStartUpForAParameterNoResolverSupports() {
        runner().withBean(UnsupportedParameterListener.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("parameter 0 of type int is not supported");
        });
    }

    @Test
    void shouldFailStartUpForTwoListenersWithOneId() {
        runner().withBean(TextListener.class).withBean(DuplicateIdListener.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("two @QueueListener methods have id 'billing'");
        });
    }

    private static long count(List<ListenerContainerEvent> events, Class<?> type) {
        return events.stream().filter(type::isInstance).count();
    }

    static class GatedListener {
        final Semaphore gate = new Semaphore(0);
        final AtomicInteger entered = new AtomicInteger();

        @QueueListener(queue = "orders", id = "gated")
        void onOrder(String text) throws InterruptedException {
            entered.incrementAndGet();
            gate.acquire();
        }
    }

    static class TextListener {
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "billing")
        void onOrder(String text, @Header(ExcerptHeaders.INDEX) long index,
                @Header(ExcerptHeaders.QUEUE) String queue) {
            threads.add(Thread.currentThread().getName());
            received.add(text + "@" + index + "@" + queue);
        }
    }

    static class EveryParameterListener {
        final List<List<Object>> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "every")
        void onOrder(byte[] bytes, ReadContext context, ExcerptBytes cursor, Message<String> message, String text,
                     @org.springframework.messaging.handler.annotation.Header("cq_index") long index,
                     @Header("cq_queue") String queue, @Header("cq_listener") String listener) {
            received.add(List.of(new String(bytes, StandardCharsets.UTF_8), message.getPayload(), context.index(),
                    cursor.length(), text, message.getHeaders().get("cq_index"), queue, listener));
            assertThat(index).isEqualTo(context.index());
        }
    }

    static class PlaceholderListener {
        final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "${app.queue}", id = "${app.listener}")
        void onOrder(String text) {
            received.add(text);
        }
    }

    static class FailingListener {
        final List<String> processed = new CopyOnWriteArrayList<>();
        volatile int attempts;

        @QueueListener(queue = "orders", id = "failing")
        void onOrder(String text) {
            if (text.equals("poison")) {
                attempts++;
                throw new IllegalStateException("cannot bill " + text);
            }
            processed.add(text);
        }
    }

    static class FromEndAndIndexListeners {
        final List<String> fromEnd = new CopyOnWriteArrayList<>();
        final List<String> fromIndex = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "from-end", startPosition = StartPosition.Kind.END)
        void fromEnd(String text) {
            fromEnd.add(text);
        }

        @QueueListener(queue = "orders", id = "from-index", startPosition = StartPosition.Kind.INDEX,
                startIndex = "${test.start-index}", autoStartup = "${never.set:false}")
        void fromIndex(String text) {
            fromIndex.add(text);
        }
    }

    static class SlowListener {
        final CountDownLatch entered = new CountDownLatch(1);
        final List<String> finished = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "slow")
        void onOrder(String text) throws InterruptedException {
            entered.countDown();
            Thread.sleep(300);
            finished.add(text);
        }
    }

    static class FromTimeListener {
        final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "from-time", startPosition = StartPosition.Kind.TIME,
                startTime = "${test.start-time}")
        void onOrder(String text) {
            received.add(text);
        }
    }

    record Shouted(String text) {
    }

    static class UpperCaseResolver implements ListenerArgumentResolver {
        @Override
        public boolean supportsParameter(MethodParameter parameter) {
            return parameter.getParameterType() == Shouted.class;
        }

        @Override
        public Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
            return new Shouted(excerpt.text().toUpperCase(java.util.Locale.ROOT));
        }
    }

    static class UpperCaseListener {
        final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "shouting")
        void onOrder(Shouted shouted) {
            received.add(shouted.text());
        }
    }

    static class UnsupportedParameterListener {
        // Any object type is a payload object (decoded by the message layer); a bare primitive is nothing.
        @QueueListener(queue = "orders", id = "unsupported")
        void onOrder(int number) {
            throw new AssertionError("never called");
        }
    }

    static class DuplicateIdListener {
        @QueueListener(queue = "orders", id = "billing")
        void onOrder(String text) {
            throw new AssertionError("never called");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EventRecorder {
        final List<ListenerContainerEvent> events = new CopyOnWriteArrayList<>();

        @Bean
        ApplicationListener<ListenerContainerEvent> recordEvents() {
            return events::add;
        }
    }
}
