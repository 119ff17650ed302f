package io.cq.core.message;

import io.cq.core.ExcerptTailer;
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

    @Test
    void shouldShowAnyMessageAsJsonWithItsMethodArgumentsAndHistory() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriterBuilder(queue.acquireAppender(), Orders.class).sourceId(7).build()
                    .onOrder(42, new Order("AAPL", 100, LocalDate.of(2026, 11, 24), List.of("dma")), 'B', null);
            BytesMessageAllocationTest.Tick tick = new BytesMessageAllocationTest.Tick();
            tick.size = 1;
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onTick(tick);
            queue.acquireAppender().writeText("not a message");

            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext context = tailer.readingDocument()) {
                assertThat(Messages.isMessage(context.bytes())).isTrue();
                assertThat(Messages.methodName(context.bytes())).isEqualTo("onOrder");
                String json = Messages.toJson(context);
                assertThat(json)
                        .startsWith("{\"method\":\"onOrder\",\"arguments\":[42,{\"symbol\":\"AAPL\",\"quantity\":100,"
                        + "\"settles\":\"2026-11-24\",\"tags\":[\"dma\"]},\"B\",null],"
                        + "\"history\":{\"sources\":[{\"sourceId\":7,"
                        + "\"index\":" + context.index() + "}],\"timings\":[");
                assertThat(Messages.toTree(context).get("history").get("timings")).hasSize(1);
                assertThat(context.bytes().position()).as("the cursor is left where it was").isZero();
            }
            try (ReadContext context = tailer.readingDocument()) {
                assertThat(Messages.toJson(context))
                        .isEqualTo("{\"method\":\"onTick\",\"arguments\":[{\"selfWrittenHex\":\""
                        + "0".repeat(48) + "01000000\"}]}");
            }
            try (ReadContext context = tailer.readingDocument()) {
                assertThat(Messages.isMessage(context.bytes())).isFalse();
                assertThat(Messages.methodName(context.bytes())).isNull();
                assertThatThrownBy(() -> Messages.toJson(context)).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("not a message excerpt");
            }
        }
    }
}
