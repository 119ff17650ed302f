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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Documents are written with tag {@code L} and their length as unsigned LEB128 (docs/file-format.md, "Message
 * excerpts"): three bytes fewer than tag {@code O}'s int32 for every document under 128 bytes. Documents written
 * with {@code O} read as before. ({@code writeObject} writes documents; method writers write records positionally,
 * tag {@code R}, {@link RecordTypesTest}.)
 */
class CompactDocumentTest {
    @TempDir
    Path dir;

    public record Quote(String symbol, double bid, double ask, long bidSize, long askSize) {
    }

    public interface Quotes {
        void quote(Quote quote);
    }

    private static final Quote QUOTE = new Quote("AAPL", 189.27, 189.29, 300, 500);
    /** "cqm", version, flags, name length (0: writeObject), argument count: what comes before the argument's tag. */
    private static final int HEADER = 4 + 1 + 1 + 1;

    @Test
    void shouldWriteADocumentUnder128BytesWithAOneByteLength() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), QUOTE);
            byte[] excerpt = readExcerpt(queue);
            int documentLength = excerpt[HEADER + 1];
            assertThat(excerpt[HEADER]).isEqualTo((byte) 'L');
            assertThat(documentLength).isPositive().isLessThan(128);
            assertThat(excerpt).hasSize(HEADER + 1 + 1 + documentLength);
        }
    }

    @Test
    void shouldReadDocumentsBothWithACompactAndWithAnInt32Length() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), QUOTE);
            CraftedMessages.append(queue, "", Map.of("symbol", "AAPL", "bid", 189.27, "ask", 189.29,
                    "bidSize", 300, "askSize", 500)); // tag O, as cq wrote before compact documents
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(Messages.readObject(tailer, Quote.class)).isEqualTo(QUOTE);
                assertThat(Messages.readObject(tailer, Quote.class)).isEqualTo(QUOTE);
            }
        }
    }

    @Test
    void shouldRenderDocumentsWithACompactLengthWithTheirFieldNames() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), QUOTE);
            try (ExcerptTailer tailer = queue.createTailer(); ReadContext context = tailer.readingDocument()) {
                assertThat(ExcerptRendering.text(context.bytes(), true)).contains(
                        "[{\"symbol\":\"AAPL\",\"bid\":189.27,\"ask\":189.29,\"bidSize\":300,\"askSize\":500}]");
            }
        }
    }

    @Test
    void shouldRoundTripADocumentWhoseLengthTakesSeveralBytes() {
        Quote quote = new Quote("x".repeat(20_000), 1, 2, 3, 4);
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.writeObject(queue.acquireAppender(), quote);
            byte[] excerpt = readExcerpt(queue);
            assertThat(excerpt[HEADER + 1] & 0x80).as("continuation bit of the length's first byte").isNotZero();
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(Messages.readObject(tailer, Quote.class)).isEqualTo(quote);
            }
        }
    }

    @Test
    void shouldRefuseALengthLongerThanAnInt() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            byte[] name = "quote".getBytes(StandardCharsets.UTF_8); // the one message here with a name
            try (WriteContext context = queue.acquireAppender().writingDocument()) {
                ExcerptBytes bytes = context.bytes();
                bytes.writeInt('c' | 'q' << 8 | 'm' << 16 | 1 << 24).writeByte((byte) 0);
                bytes.writeByte((byte) name.length).writeBytes(name).writeByte((byte) 1);
                bytes.writeByte((byte) 'L').writeBytes(new byte[] {-1, -1, -1, -1, -1, 1, 0});
            }
            MethodReader reader = Messages.methodReader(queue.createTailer(), (Quotes) q -> { });
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("length malformed");
        }
    }

    private static byte[] readExcerpt(MappedQueue queue) {
        try (ExcerptTailer tailer = queue.createTailer(); ReadContext context = tailer.readingDocument()) {
            ExcerptBytes bytes = context.bytes();
            byte[] excerpt = new byte[(int) bytes.length()];
            bytes.readBytes(excerpt);
            return excerpt;
        }
    }
}
