package io.cq.core.message;

import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What tools ({@code dump}, {@code tail}) show of message excerpts, knowing nothing of their interfaces. */
class MessagesTextTest {
    @TempDir
    Path dir;

    public record Order(String symbol, int quantity, LocalDate settles, List<String> tags) {
    }

    public interface Orders {
        void onOrder(long id, Order order, char side, String note);

        void onTick(BytesMessageAllocationTest.Tick tick);
    }

    /** Writes an order through a method writer with source id 7 (so the message carries its history). */
    private static void writeAnOrder(MappedQueue queue) {
        Messages.methodWriterBuilder(queue.acquireAppender(), Orders.class).sourceId(7).build()
                .onOrder(42, new Order("AAPL", 100, LocalDate.of(2026, 11, 24), List.of("dma")), 'B', null);
    }

    @Test
    void shouldNameTheMethodOfAMessageExcerpt() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            writeAnOrder(queue);

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(Messages.isMessage(context.bytes())).isTrue();
                assertThat(Messages.methodName(context.bytes())).isEqualTo("onOrder");
            }
        }
    }

    @Test
    void shouldShowAMessageAsJsonWithItsMethodArgumentsAndHistory() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            writeAnOrder(queue);

            try (ReadContext context = queue.createTailer().readingDocument()) {
                String json = Messages.toJson(context);
                assertThat(json)
                        .startsWith("{\"method\":\"onOrder\",\"arguments\":[42,{\"symbol\":\"AAPL\",\"quantity\":100,"
                        + "\"settles\":\"2026-11-24\",\"tags\":[\"dma\"]},\"B\",null],"
                        + "\"history\":{\"sources\":[{\"sourceId\":7,"
                        + "\"index\":" + context.index() + "}],\"timings\":[");
                assertThat(Messages.toTree(context).get("history").get("timings")).hasSize(1);
                assertThat(context.bytes().position()).as("the cursor is left where it was").isZero();
            }
        }
    }

    @Test
    void shouldShowASelfWrittenArgumentAsHex() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            BytesMessageAllocationTest.Tick tick = new BytesMessageAllocationTest.Tick();
            tick.size = 1;
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onTick(tick);

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(Messages.toJson(context))
                        .isEqualTo("{\"method\":\"onTick\",\"arguments\":[{\"selfWrittenHex\":\""
                        + "0".repeat(48) + "01000000\"}]}");
            }
        }
    }

    @Test
    void shouldNameNoMethodForAnExcerptThatIsNotAMessage() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("not a message");

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(Messages.isMessage(context.bytes())).isFalse();
                assertThat(Messages.methodName(context.bytes())).isNull();
            }
        }
    }

    @Test
    void shouldRefuseToShowAnExcerptThatIsNotAMessageAsJson() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("not a message");

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThatThrownBy(() -> Messages.toJson(context)).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("not a message excerpt");
            }
        }
    }
}
