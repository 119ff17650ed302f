package io.cq.test;

import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples of docs/testing.md, as written there where they stand alone (keep both in step). */
class TestingGuideTest {
    record Order(String id, String symbol, long quantity) {
    }

    interface OrderEvents {
        void onOrder(Order order);

        void onCancel(String orderId);
    }

    /** The code under test of the guide's first example. */
    record AuditTrail(MappedQueue queue) {
        void login(String user) {
            queue.acquireAppender().writeText("login " + user);
        }
    }

    @TempQueue
    MappedQueue queue;                                   // a new, empty queue for each test

    @Test
    void shouldRecordEachLogin() {
        AuditTrail trail = new AuditTrail(queue);        // your code, appending to the queue
        trail.login("alice");

        assertThat(QueueProbe.of(queue).texts()).containsExactly("login alice");
    }

    @Test
    void shouldKeepTwoQueuesApart(@TempQueue(name = "in") MappedQueue in, @TempQueue(name = "out") MappedQueue out) {
        assertThat(in.path().getParent()).isNotEqualTo(out.path().getParent());
        assertThat(in).isNotSameAs(queue);
    }

    /** Two texts ("first", "done: second"), then two orders and a cancel through a method writer. */
    private void appendTheGuidesExcerpts() {
        queue.acquireAppender().writeText("first");
        queue.acquireAppender().writeText("done: second");
        OrderEvents events = Messages.methodWriter(queue.acquireAppender(), OrderEvents.class);
        events.onOrder(new Order("o-1", "AAPL", 100));
        events.onOrder(new Order("o-2", "MSFT", 5_000));
        events.onCancel("o-1");
    }

    @Test
    void shouldReadWhatTheQueueHoldsAsTheGuideShows() {
        appendTheGuidesExcerpts();

        QueueProbe probe = QueueProbe.of(queue);

        List<String> texts = probe.texts();
        List<byte[]> bytes = probe.bytes();
        List<QueueExcerpt> excerpts = probe.excerpts();
        assertThat(texts).hasSize(5).startsWith("first", "done: second");
        assertThat(bytes).hasSize(5);
        assertThat(excerpts).extracting(QueueExcerpt::methodName)
                .containsExactly(null, null, "onOrder", "onOrder", "onCancel");
    }

    @Test
    void shouldAwaitExcerptsAsTheGuideShows() {
        appendTheGuidesExcerpts();

        QueueProbe probe = QueueProbe.of(queue);

        List<String> firstTwo = probe.awaitTexts(2);
        Order big = probe.awaitObject(Order.class, order -> order.quantity() > 1_000);
        String done = probe.awaitText(text -> text.startsWith("done"));
        QueueExcerpt cancel = probe.awaitExcerpt(excerpt -> "onCancel".equals(excerpt.methodName()));
        assertThat(firstTwo).containsExactly("first", "done: second");
        assertThat(big).isEqualTo(new Order("o-2", "MSFT", 5_000));
        assertThat(done).isEqualTo("done: second");
        assertThat(cancel.json()).isEqualTo("{\"method\":\"onCancel\",\"arguments\":[\"o-1\"]}");
    }

    @Test
    void shouldDecodeObjectsAsTheGuideShows() {
        Messages.writeObject(queue.acquireAppender(), new Order("o-1", "AAPL", 100));
        Messages.writeObject(queue.acquireAppender(), new Order("o-2", "MSFT", 5));
        Messages.writeObject(queue.acquireAppender(), new Order("o-3", "NVDA", 7));
        QueueProbe probe = QueueProbe.of(queue);

        List<Order> orders = probe.objects(Order.class);
        List<Order> firstThree = probe.atMost(Duration.ofSeconds(30)).awaitObjects(Order.class, 3);
        assertThat(firstThree).isEqualTo(orders).hasSize(3);
    }

    @Test
    void shouldReadExcerptsLaidOutByHandAsTheGuideShows(@TempQueue(name = "symbols") MappedQueue symbolQueue) {
        symbolQueue.acquireAppender().writeDocument(out -> out.writeUtf8("AAPL"));
        QueueProbe probe = QueueProbe.of(symbolQueue);

        List<String> symbols = probe.read(bytes -> bytes.readUtf8());      // excerpts laid out by hand
        assertThat(symbols).containsExactly("AAPL");
    }

    @Test
    void shouldReadAClosedQueueAgainAsTheGuideShows() {
        Messages.writeObject(queue.acquireAppender(), new Order("o-1", "AAPL", 100));
        queue.close();
        int published = 1;

        try (MappedQueue quotes = MappedQueue.builder(queue.path()).readOnly(true).build()) {
            assertThat(QueueProbe.of(quotes).objects(Order.class)).hasSize(published);
        }
    }
}
