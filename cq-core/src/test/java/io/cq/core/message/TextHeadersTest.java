package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Headers after a message's arguments (docs/file-format.md, "Message excerpts"): written, read, and ignored. */
class TextHeadersTest {
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @TempDir
    Path dir;

    public interface Orders {
        void placed(String symbol, long quantity);
    }

    public record Fill(String order, int quantity) {
    }

    @Test
    void shouldCarryHeadersWithAMethodWriterCallOnlyWhileTheHolderHasSome() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            TextHeaders outgoing = new TextHeaders();
            Orders orders = Messages.methodWriterBuilder(queue.acquireAppender(), Orders.class).headers(outgoing)
                    .build();
            outgoing.put("traceparent", TRACEPARENT).put("tracestate", "cq=1");
            orders.placed("AAPL", 100);
            outgoing.clear();
            orders.placed("MSFT", 5);

            List<String> calls = new ArrayList<>();
            MethodReader reader = Messages.methodReader(queue.createTailer(),
                    (Orders) (symbol, quantity) -> calls.add(symbol + " " + quantity));
            while (reader.readOne()) {
                // every call, headers or not
            }
            assertThat(calls).containsExactly("AAPL 100", "MSFT 5");

            ExcerptTailer tailer = queue.createTailer();
            TextHeaders incoming = new TextHeaders();
            try (ReadContext first = tailer.readingDocument()) {
                assertThat(Messages.readHeaders(first, incoming)).isTrue();
                assertThat(incoming.toMap()).containsExactly(Map.entry("traceparent", TRACEPARENT),
                        Map.entry("tracestate", "cq=1"));
                assertThat(first.bytes().position()).as("the cursor is left alone").isZero();
                assertThat(Messages.toJson(first)).isEqualTo("{\"method\":\"placed\",\"arguments\":[\"AAPL\",100],"
                        + "\"headers\":{\"traceparent\":\"" + TRACEPARENT + "\",\"tracestate\":\"cq=1\"}}");
            }
            try (ReadContext second = tailer.readingDocument()) {
                assertThat(Messages.readHeaders(second, incoming)).isFalse();
                assertThat(incoming.isEmpty()).isTrue();
                assertThat(Messages.toJson(second)).isEqualTo("{\"method\":\"placed\",\"arguments\":[\"MSFT\",5]}");
            }
        }
    }

    @Test
    void shouldCarryHeadersWithAnObjectThatReadObjectStillDecodes() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), new Fill("o-1", 10),
                    new TextHeaders().put("traceparent", TRACEPARENT));

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(Messages.readObject(context, Fill.class)).isEqualTo(new Fill("o-1", 10));
                TextHeaders incoming = new TextHeaders();
                assertThat(Messages.readHeaders(context, incoming)).isTrue();
                assertThat(incoming.get("traceparent")).isEqualTo(TRACEPARENT);
                assertThat(incoming.get("baggage")).isNull();
            }
        }
    }

    /**
     * A reader written to the layout as it was before headers (magic, flags with only bit 0 known, name, arguments)
     * reads a message with headers exactly as one without: the section comes after everything it reads.
     */
    @Test
    void shouldLeaveMessagesReadableByAReaderThatPredatesHeaders() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            TextHeaders outgoing = new TextHeaders().put("traceparent", TRACEPARENT);
            Messages.methodWriterBuilder(queue.acquireAppender(), Orders.class).headers(outgoing).build()
                    .placed("AAPL", 100);
            Messages.methodWriter(queue.acquireAppender(), Orders.class).placed("AAPL", 100);

            ExcerptTailer tailer = queue.createTailer();
            String withHeaders = readAsBeforeHeaders(tailer);
            String without = readAsBeforeHeaders(tailer);
            assertThat(withHeaders).isEqualTo(without).isEqualTo("placed(AAPL, 100)");
        }
    }

    private static String readAsBeforeHeaders(ExcerptTailer tailer) {
        try (ReadContext context = tailer.readingDocument()) {
            ExcerptBytes bytes = context.bytes();
            assertThat(bytes.readInt()).isEqualTo('c' | 'q' << 8 | 'm' << 16 | 1 << 24);
            assertThat(bytes.readByte() & 1).as("no history").isZero();
            byte[] name = new byte[bytes.readByte()];
            bytes.readBytes(name);
            assertThat(bytes.readByte()).as("argument count").isEqualTo((byte) 2);
            assertThat(bytes.readByte()).isEqualTo((byte) 'T');
            String symbol = bytes.readUtf8();
            assertThat(bytes.readByte()).isEqualTo((byte) 'J');
            long quantity = bytes.readLong();
            return new String(name, StandardCharsets.UTF_8) + "(" + symbol + ", " + quantity + ")";
        }
    }

    @Test
    void shouldFindNoHeadersInRawExcerptsOrInMessagesWrittenWithoutThem() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("00-not-a-message");
            Messages.writeObject(queue.acquireAppender(), new Fill("o-2", 1));
            Messages.writeObject(queue.acquireAppender(), new Fill("o-3", 1), new TextHeaders());

            ExcerptTailer tailer = queue.createTailer();
            TextHeaders incoming = new TextHeaders().put("stale", "from an earlier excerpt");
            for (int i = 0; i < 3; i++) {
                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(Messages.readHeaders(context, incoming)).as("excerpt " + i).isFalse();
                    assertThat(incoming.isEmpty()).isTrue();
                }
            }
        }
    }

    @Test
    void shouldRefuseAHeadersSectionWhoseSizeDoesNotFitTheMessage() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            try (WriteContext context = queue.acquireAppender().writingDocument()) {
                // an object message flagged with headers whose size field claims more than the excerpt holds
                context.bytes().writeInt('c' | 'q' << 8 | 'm' << 16 | 1 << 24).writeByte((byte) 2)
                        .writeByte((byte) 0).writeByte((byte) 1).writeByte((byte) 'N').writeInt(1_000);
            }
            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThatThrownBy(() -> Messages.readHeaders(context, new TextHeaders()))
                        .isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("headers section claims 1000 bytes");
            }
        }
    }

    @Test
    void shouldReplaceAValueOfTheSameNameKeepingTheOrderOfFirstPut() {
        TextHeaders headers = new TextHeaders().put("b", "1").put("a", "2").put("b", "3");
        assertThat(headers.toMap()).containsExactly(Map.entry("b", "3"), Map.entry("a", "2"));
    }

    @Test
    void shouldRefuseAnEmptyName() {
        TextHeaders headers = new TextHeaders();
        assertThatThrownBy(() -> headers.put("", "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
