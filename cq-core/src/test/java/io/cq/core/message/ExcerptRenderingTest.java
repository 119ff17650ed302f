package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one rendering of excerpts that cq tail, cq dump and the starter's console share. */
class ExcerptRenderingTest {
    @TempDir
    Path dir;

    public interface Orders {
        void onOrder(String symbol, int quantity);
    }

    @Test
    void shouldRenderMessagesTextAndBytesAsCqTailDoes() {
        List<String> lines = new ArrayList<>();
        List<String> json = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onOrder("AAPL", 100);
            Messages.writeObject(queue.acquireAppender(), List.of(1, 2), new TextHeaders().put("traceparent", "00-ab"));
            queue.acquireAppender().writeText("two\nlines");
            queue.acquireAppender().writeBytes(new byte[] {0, 1, (byte) 0xFF});
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < 4; i++) {
                try (ReadContext context = tailer.readingDocument()) {
                    lines.add(ExcerptRendering.text(context.bytes(), true));
                    context.bytes().position(0);
                    ObjectNode node = JsonNodeFactory.instance.objectNode();
                    ExcerptRendering.json(context.bytes(), node);
                    json.add(ExcerptRendering.json(node));
                }
            }
        }
        assertThat(lines).containsExactly("onOrder [\"AAPL\",100]", "(object) [[1,2]]", "two\\nlines", "0001ff");
        assertThat(json).containsExactly("{\"method\":\"onOrder\",\"arguments\":[\"AAPL\",100]}",
                "{\"method\":\"\",\"arguments\":[[1,2]],\"headers\":{\"traceparent\":\"00-ab\"}}",
                "{\"text\":\"two\\nlines\"}", "{\"bytes\":\"AAH/\"}");
    }

    @Test
    void shouldRenderBytesCopiedOutOfAnExcerptAsTheExcerptItself() {
        byte[] copy;
        String inQueue;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onOrder("MSFT", 5);
            try (ReadContext context = queue.createTailer().readingDocument()) {
                copy = ExcerptRendering.remainingBytes(context.bytes());
                context.bytes().position(0);
                inQueue = ExcerptRendering.text(context.bytes(), true);
            }
        }
        ExcerptBytes bytes = Messages.readOnlyBytes(copy);
        assertThat(Messages.isMessage(bytes)).isTrue();
        assertThat(ExcerptRendering.text(bytes, true)).isEqualTo(inQueue).isEqualTo("onOrder [\"MSFT\",5]");
        assertThatThrownBy(() -> bytes.position(0).writeInt(1)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void shouldShowAMalformedMessageWithItsErrorAndBytes() {
        byte[] whole;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Orders.class).onOrder("AAPL", 100);
            try (ReadContext context = queue.createTailer().readingDocument()) {
                whole = ExcerptRendering.remainingBytes(context.bytes());
            }
        }
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        ObjectNode message = ExcerptRendering.message(Messages.readOnlyBytes(cut));
        assertThat(message).isNotNull();
        assertThat(message.get("method").asString()).isEqualTo(ExcerptRendering.MALFORMED);
        assertThat(message.get("malformed").asString()).isNotEmpty();
        assertThat(message.get("arguments").get(0).asString()).isEqualTo(ExcerptRendering.hex(cut));
        assertThat(ExcerptRendering.messageText(message)).startsWith("\"(malformed message)\" [\"");
    }

    @Test
    void shouldCutLongHexAndSayHowMuchIsLeft() {
        byte[] bytes = new byte[ExcerptRendering.HEX_LIMIT + 10];
        assertThat(ExcerptRendering.hex(bytes)).endsWith("00 ... (10 more bytes)")
                .hasSize(2 * ExcerptRendering.HEX_LIMIT + " ... (10 more bytes)".length());
        assertThat(ExcerptRendering.hex(new byte[] {1, 2, 3, 4}, 100, 2)).isEqualTo("0102 ... (98 more bytes)");
        assertThat(ExcerptRendering.printableText("<script>".getBytes(StandardCharsets.UTF_8))).isEqualTo("<script>");
        assertThat(ExcerptRendering.isPlainName("on Order")).isFalse();
    }
}
