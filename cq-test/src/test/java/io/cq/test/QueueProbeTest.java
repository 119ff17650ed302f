package io.cq.test;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueProbeTest {
    record Order(String id, long quantity) {
    }

    record Fill(String orderId, double price) {
    }

    interface OrderEvents {
        void onOrder(Order order);

        void onCancel(String orderId);
    }

    @TempQueue
    MappedQueue queue;

    private ExcerptAppender appender() {
        return queue.acquireAppender();
    }

    @Test
    void shouldReadTextsBytesAndObjectsFromTheFirstExcerpt() {
        appender().writeText("hello");
        appender().writeBytes(new byte[] {1, 2, 3});
        Messages.writeObject(appender(), new Order("o-1", 100));
        QueueProbe probe = QueueProbe.of(queue);

        assertThat(probe.texts()).hasSize(3).startsWith("hello");
        assertThat(probe.bytes()).hasSize(3).element(1).isEqualTo(new byte[] {1, 2, 3});
        assertThat(probe.excerpts()).extracting(QueueExcerpt::ordinal).containsExactly(0, 1, 2);
        assertThat(probe.excerpts().get(2).as(Order.class)).isEqualTo(new Order("o-1", 100));
        assertThat(probe.excerpts().get(2).methodName()).isEmpty();
        assertThat(probe.excerpts().get(0).isMessage()).isFalse();
    }

    @Test
    void shouldDecodeObjectsAsAListenerDoes() {
        Messages.writeObject(appender(), new Order("o-1", 100));
        OrderEvents events = Messages.methodWriter(appender(), OrderEvents.class);
        events.onOrder(new Order("o-2", 5));

        assertThat(QueueProbe.of(queue).objects(Order.class)).containsExactly(new Order("o-1", 100),
                new Order("o-2", 5));
    }

    @Test
    void shouldShowMethodWriterCallsWithTheirMethodAndJson() {
        OrderEvents events = Messages.methodWriter(appender(), OrderEvents.class);
        events.onOrder(new Order("o-1", 100));
        events.onCancel("o-1");

        List<QueueExcerpt> calls = QueueProbe.of(queue).excerpts();

        assertThat(calls).extracting(QueueExcerpt::methodName).containsExactly("onOrder", "onCancel");
        assertThat(calls.get(0).json()).contains("\"method\":\"onOrder\"").contains("\"id\":\"o-1\"");
        assertThat(calls.get(1).as(String.class)).isEqualTo("o-1");
        assertThat(calls.get(0)).hasToString("#0 (index 0x" + Long.toHexString(calls.get(0).index())
                + ") call onOrder " + calls.get(0).json());
    }

    @Test
    void shouldReadExcerptsLaidOutByHand() {
        appender().writeDocument(bytes -> bytes.writeUtf8("AAPL").writeInt(100));
        appender().writeDocument(bytes -> bytes.writeUtf8("MSFT").writeInt(7));
        QueueProbe probe = QueueProbe.of(queue);

        assertThat(probe.read(bytes -> bytes.readUtf8() + " " + bytes.readInt())).containsExactly("AAPL 100", "MSFT 7");
        String symbol = probe.excerpts().get(1).read(bytes -> bytes.readUtf8());
        assertThat(symbol).isEqualTo("MSFT");
    }

    @Test
    void shouldNeverMoveANamedTailer() {
        appender().writeText("a");
        appender().writeText("b");
        try (ExcerptTailer billing = queue.createTailer("billing")) {
            assertThat(billing.readText()).isEqualTo("a");
            long next = billing.index();

            QueueProbe probe = QueueProbe.of(queue);
            assertThat(probe.texts()).containsExactly("a", "b");
            assertThat(probe.awaitTexts(2)).containsExactly("a", "b");

            assertThat(billing.index()).isEqualTo(next);
            assertThat(queue.namedTailer("billing").orElseThrow().nextIndex()).isEqualTo(next);
            assertThat(billing.readText()).isEqualTo("b");
        }
    }

    @Test
    void shouldWaitForTheFirstExcerptsAppendedByAnotherThread() throws InterruptedException {
        CountDownLatch firstRead = new CountDownLatch(1);
        appender().writeText("one");
        Thread writer = Thread.ofPlatform().start(() -> {
            try (ExcerptAppender own = queue.createAppender()) {
                firstRead.await();
                own.writeText("two");
                own.writeText("three");
                own.writeText("four");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        QueueProbe probe = QueueProbe.of(queue);
        assertThat(probe.awaitTexts(1)).containsExactly("one");
        firstRead.countDown();

        assertThat(probe.awaitTexts(3)).containsExactly("one", "two", "three");
        assertThat(probe.awaitText(text -> text.startsWith("f"))).isEqualTo("four");
        writer.join();
    }

    @Test
    void shouldFailATimedOutAwaitWithWhatItExpectedAndWhatTheQueueHolds() {
        appender().writeText("o-1");
        Messages.writeObject(appender(), new Order("o-2", 5));
        QueueProbe probe = QueueProbe.of(queue).atMost(Duration.ofMillis(200));

        assertThatThrownBy(() -> probe.awaitExcerpts(3))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("Timed out after 200 ms waiting for 3 excerpts in the queue " + queue.path()
                        + "; it holds 2 excerpts.")
                .hasMessageContaining("\n  #0 (index 0x")
                .hasMessageContaining(") text \"o-1\"")
                .hasMessageContaining(") object {\"method\":\"\",\"arguments\":[{\"id\":\"o-2\",\"quantity\":5}]}");
    }

    @Test
    void shouldSayThatTheQueueIsEmptyWhenNothingArrived() {
        assertThatThrownBy(() -> QueueProbe.of(queue).atMost(Duration.ofMillis(100)).awaitText("x"::equals))
                .hasMessage("Timed out after 100 ms waiting for an excerpt whose text matches the condition in the "
                        + "queue " + queue.path() + "; it holds no excerpt.");
    }

    @Test
    void shouldShowOnlyTheLastFewExcerptsOfALongQueue() {
        for (int i = 0; i < 8; i++) {
            appender().writeText("text " + i);
        }

        assertThatThrownBy(() -> QueueProbe.of(queue).atMost(Duration.ofMillis(100)).awaitExcerpts(9))
                .hasMessageContaining("it holds 8 excerpts.\nThe last 5 excerpts:")
                .hasMessageContaining("text \"text 3\"").hasMessageContaining("text \"text 7\"")
                .hasMessageNotContaining("text \"text 2\"");
    }

    @Test
    void shouldFailAtOnceNamingTheExcerptThatDoesNotDecode() {
        Messages.writeObject(appender(), new Order("o-1", 1));
        appender().writeText("not an order");

        assertThatThrownBy(() -> QueueProbe.of(queue).awaitObjects(Order.class, 3))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("The excerpt #1 (index 0x")
                .hasMessageContaining("text \"not an order\" of the queue " + queue.path())
                .hasMessageContaining("does not decode as " + Order.class.getName())
                .cause().isInstanceOf(MessageDecodingException.class);
        assertThatThrownBy(() -> QueueProbe.of(queue).objects(Order.class))
                .hasMessageContaining("does not decode as " + Order.class.getName());
    }

    @Test
    void shouldPassOverOtherExcerptsWhileAwaitingAnObject() {
        appender().writeText("not an order");
        Messages.writeObject(appender(), new Order("o-1", 1));
        Messages.writeObject(appender(), new Order("o-2", 2));
        QueueProbe probe = QueueProbe.of(queue).atMost(Duration.ofMillis(200));

        assertThat(probe.awaitObject(Order.class, order -> order.quantity() == 2)).isEqualTo(new Order("o-2", 2));
        assertThatThrownBy(() -> probe.awaitObject(Order.class, order -> order.quantity() == 3))
                .hasMessageStartingWith("Timed out after 200 ms waiting for an object of type " + Order.class.getName()
                        + " that matches the condition")
                .hasMessageContaining("it holds 3 excerpts. 1 excerpt does not decode as " + Order.class.getName()
                        + "; the last because: ");
    }

    @Test
    void shouldSummariseRawBytesInHex() {
        appender().writeBytes(new byte[] {0, 1, (byte) 0xff});

        assertThat(QueueProbe.of(queue).excerpts().get(0).toString()).endsWith(") 3 bytes 0001ff");
    }

    @Test
    void shouldCutLongTextInASummary() {
        appender().writeText("x".repeat(200));

        assertThat(QueueProbe.of(queue).excerpts().get(0).toString()).endsWith("x... (200 chars)\"");
    }

    @Test
    void shouldEscapeALineBreakInASummaryOnly() {
        appender().writeText("two\nlines");
        QueueExcerpt excerpt = QueueProbe.of(queue).excerpts().get(0);

        assertThat(excerpt.toString()).endsWith(") text \"two\\nlines\"");
        assertThat(excerpt.text()).isEqualTo("two\nlines");
        assertThat(new String(excerpt.bytes(), StandardCharsets.UTF_8)).isEqualTo("two\nlines");
    }

    @Test
    void shouldRefuseAMeaninglessCountOrDuration() {
        QueueProbe probe = QueueProbe.of(queue);
        assertThatThrownBy(() -> probe.awaitExcerpts(0)).hasMessage("count=0 must be at least 1");
        assertThatThrownBy(() -> probe.atMost(Duration.ZERO)).hasMessage("timeout=PT0S must be positive");
        assertThatThrownBy(() -> probe.pollInterval(Duration.ofMillis(-1)))
                .hasMessage("pollInterval=PT-0.001S must be positive");
    }

    @Test
    void shouldNotPretendThatTextIsAMessage() {
        appender().writeText("plain");
        QueueExcerpt excerpt = QueueProbe.of(queue).excerpts().getFirst();

        assertThat(excerpt.methodName()).isNull();
        assertThatThrownBy(excerpt::json).isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("text \"plain\": not a message, so it has no JSON form");
        assertThatThrownBy(() -> excerpt.as(Fill.class)).isInstanceOf(MessageDecodingException.class);
    }
}
