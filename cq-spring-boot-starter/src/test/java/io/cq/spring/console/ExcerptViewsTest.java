package io.cq.spring.console;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.message.ExcerptRendering;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.spring.listener.DeadLetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** How the console shows one excerpt: as cq tail does, at a bounded cost, cut to the display limit. */
class ExcerptViewsTest {
    private static final int LIMIT = 100;

    @TempDir
    Path dir;

    public interface Orders {
        void onOrder(String symbol, int quantity);
    }

    /** Every excerpt of a queue that {@code write} fills, as the console shows it. */
    private List<ExcerptView> views(Consumer<MappedQueue> write, boolean deadLetters) {
        List<ExcerptView> views = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.DAILY).build()) {
            write.accept(queue);
            ExcerptViews renderer = new ExcerptViews(queue.rollCycle(), LIMIT, queue.path());
            try (ExcerptTailer tailer = queue.createTailer()) {
                boolean more = true;
                while (more) {
                    try (ReadContext read = tailer.readingDocument()) {
                        more = read.isPresent();
                        if (more) {
                            views.add(deadLetters ? renderer.renderDeadLetter(read.bytes(), read.index())
                                    : renderer.render(read.bytes(), read.index()));
                        }
                    }
                }
            }
        }
        return views;
    }

    @Test
    void shouldShowMessagesTextAndBytesAsCqTailDoes() {
        List<ExcerptView> views = viewsOfAMessageAnObjectATextAndBytes();
        assertThat(views).extracting(ExcerptView::kind).containsExactly("message", "message", "text", "bytes");
        assertThat(views).extracting(ExcerptView::summary)
                .containsExactly("onOrder [\"AAPL\",100]", "(object) [[1]]", "two\\nlines", "0001ff");
        assertThat(views.get(0).json()).isEqualTo("{\"index\":\"" + views.get(0).indexHex()
                + "\",\"method\":\"onOrder\",\"arguments\":[\"AAPL\",100]}");
        assertThat(views.get(1).traceId()).isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
        assertThat(views.get(2).text()).isEqualTo("two\nlines");
        assertThat(views.get(3).hex()).isEqualTo("0001ff");
        assertThat(views.get(3).json()).endsWith("\"bytes\":\"AAH/\"}");
    }

    @Test
    void shouldCutAJsonLineOverTheDisplayLimitSayingHowMuchIsLeft() {
        List<ExcerptView> views = viewsOfAMessageAnObjectATextAndBytes();
        assertThat(views).extracting(ExcerptView::cut).as("the JSON line with the headers is over 100 characters")
                .containsExactly(false, true, false, false);
        assertThat(views.get(1).json()).endsWith(" ... (27 more characters)");
    }

    /** A method call, an object with a trace header, a text of two lines and three bytes. */
    private List<ExcerptView> viewsOfAMessageAnObjectATextAndBytes() {
        return views(queue -> {
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onOrder("AAPL", 100);
            Messages.writeObject(queue.acquireAppender(), List.of(1),
                    new TextHeaders().put("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1"));
            queue.acquireAppender().writeText("two\nlines");
            queue.acquireAppender().writeBytes(new byte[] {0, 1, (byte) 0xFF});
        }, false);
    }

    @Test
    void shouldCutALongExcerptToTheDisplayLimitAndSayHowMuchIsLeft() {
        ExcerptView view = views(queue -> queue.acquireAppender().writeText("x".repeat(1_000)), false).getFirst();
        assertThat(view.cut()).isTrue();
        assertThat(view.summary()).isEqualTo("x".repeat(LIMIT) + " ... (900 more characters)");
        assertThat(view.text()).isEqualTo(view.summary());
        assertThat(view.length()).isEqualTo(1_000);
    }

    @Test
    void shouldNotDecodeAnExcerptLongerThanTheDecodeLimit() {
        String big = "y".repeat(ExcerptViews.DECODE_LIMIT);
        ExcerptView view = views(queue -> Messages.methodWriter(queue.acquireAppender(), Orders.class)
                .onOrder(big, 1), false).getFirst();
        assertThat(view.kind()).isEqualTo("message");
        assertThat(view.summary()).startsWith("onOrder (").contains("longer than the " + ExcerptViews.DECODE_LIMIT);
        assertThat(view.json()).isNull();
        assertThat(view.hex()).hasSizeLessThan(LIMIT + 40).contains(" more bytes)");
        assertThat(view.cut()).isTrue();
    }

    @Test
    void shouldShowADeadLetterWithItsFailureAndTheFailedExcerptDecoded() {
        byte[] failed;
        try (MappedQueue source = MappedQueue.builder(dir.resolve("source")).build()) {
            Messages.methodWriter(source.acquireAppender(), Orders.class).onOrder("MSFT", 5);
            try (ReadContext context = source.createTailer().readingDocument()) {
                failed = ExcerptRendering.remainingBytes(context.bytes());
            }
        }
        ExcerptView view = views(queue -> queue.acquireAppender().writeDocument(bytes -> new DeadLetter("orders",
                0x42, "billing", "java.lang.IllegalStateException", "no such customer", failed).writeTo(bytes)),
                true).getFirst();
        assertThat(view.kind()).isEqualTo("dead-letter");
        assertThat(view.deadLetter()).isNotNull();
        assertThat(view.deadLetter().queue()).isEqualTo("orders");
        assertThat(view.deadLetter().indexHex()).isEqualTo("0x42");
        assertThat(view.deadLetter().exceptionMessage()).isEqualTo("no such customer");
        assertThat(view.deadLetter().payload().summary()).isEqualTo("onOrder [\"MSFT\",5]");
    }

    @Test
    void shouldHideTheQueueDirectoryInCqsErrorsWhenValuesAreHidden() {
        ExcerptViews hiding = new ExcerptViews(RollCycle.DAILY, LIMIT, dir);
        ExcerptViews showing = new ExcerptViews(RollCycle.DAILY, LIMIT, null);
        RuntimeException error = new IllegalStateException(dir + "/20261207.cq4 at position 64: found empty");
        assertThat(hiding.damaged(0x513a00000001L, error).error())
                .isEqualTo("java.lang.IllegalStateException: ******/20261207.cq4 at position 64: found empty");
        assertThat(showing.damaged(0x513a00000001L, error).error()).contains(dir.toString());
        assertThat(ExcerptViews.traceId(Map.of("traceparent", "00-abc-def-01"))).isEqualTo("abc");
    }
}
