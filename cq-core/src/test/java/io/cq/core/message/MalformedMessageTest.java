package io.cq.core.message;

import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MalformedMessageTest {
    @TempDir
    Path dir;

    public interface Counter {
        void add(long amount);
    }

    private static final int MAGIC = 'c' | 'q' << 8 | 'm' << 16;

    /** A record read without Jackson, whose constructor refuses some values. */
    public record Quantity(String symbol, long amount) {
        public Quantity {
            if (amount < 0) {
                throw new IllegalArgumentException("a quantity is never negative");
            }
        }
    }

    public interface Quantities {
        void quantity(Quantity quantity);
    }

    /** Messages cut short, of a newer layout and with an unknown tag, then a good one; returns their indexes. */
    private static long[] appendThreeMalformedMessagesThenAGoodOne(MappedQueue queue) {
        var appender = queue.acquireAppender();
        long cutShort = appender.writeDocument(bytes -> bytes.writeInt(MAGIC | 1 << 24).writeByte((byte) 0)
                .writeByte((byte) 3).writeBytes(new byte[] {'a', 'd', 'd'}).writeByte((byte) 1)
                .writeByte((byte) 'J')
                .writeInt(7)); // a long announced, four bytes given
        long newerVersion = appender.writeDocument(bytes -> bytes.writeInt(MAGIC | 2 << 24).writeLong(0));
        long unknownTag = appender.writeDocument(bytes -> bytes.writeInt(MAGIC | 1 << 24).writeByte((byte) 0)
                .writeByte((byte) 3).writeBytes(new byte[] {'a', 'd', 'd'}).writeByte((byte) 1)
                .writeByte((byte) '?'));
        Messages.methodWriter(appender, Counter.class).add(5);
        return new long[] {cutShort, newerVersion, unknownTag};
    }

    @Test
    void shouldReportMalformedMessagesWithTheirIndex() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long[] malformed = appendThreeMalformedMessagesThenAGoodOne(queue);
            long cutShort = malformed[0];

            Counter handler = value -> { };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageStartingWith("message excerpt at index 0x" + Long.toHexString(cutShort)
                    + " (method add): argument 0")
                    .satisfies(e -> {
                        MessageDecodingException error = (MessageDecodingException) e;
                        assertThat(error.index()).isEqualTo(cutShort);
                        assertThat(error.method()).isEqualTo("add");
                    });
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining(Long.toHexString(malformed[1]))
                    .hasMessageContaining("message layout version 2 is not known");
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining(Long.toHexString(malformed[2]))
                    .hasMessageContaining("an unknown tag 0x3f where the handler takes long");
        }
    }

    @Test
    void shouldGoOnWithTheNextExcerptAfterMalformedMessages() {
        List<Long> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendThreeMalformedMessagesThenAGoodOne(queue);

            Counter handler = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class);
            }
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen).containsExactly(5L);
    }

    /** A quantity its record's constructor refuses, written by a writer without the check, then a good one. */
    private static void appendARefusedQuantityThenAGoodOne(MappedQueue queue) {
        CraftedMessages.append(queue, "quantity", Map.of("symbol", "AAPL", "amount", -1));
        Messages.methodWriter(queue.acquireAppender(), Quantities.class).quantity(new Quantity("MSFT", 2));
    }

    @Test
    void shouldReportARecordItsConstructorRefuses() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendARefusedQuantityThenAGoodOne(queue);

            Quantities handler = quantity -> { };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("(method quantity): argument 0: the document does not decode as")
                    .hasMessageContaining("a quantity is never negative");
        }
    }

    @Test
    void shouldGoOnWithTheNextExcerptAfterARecordItsConstructorRefuses() {
        List<Quantity> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendARefusedQuantityThenAGoodOne(queue);

            Quantities handler = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen).containsExactly(new Quantity("MSFT", 2));
    }
}
