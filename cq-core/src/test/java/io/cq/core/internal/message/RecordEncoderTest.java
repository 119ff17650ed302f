package io.cq.core.internal.message;

import com.fasterxml.jackson.annotation.JsonIgnoreType;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.internal.message.RandomRecords.Everything;
import io.cq.core.internal.message.RandomRecords.Inner;
import io.cq.core.internal.message.RandomRecords.OddNames;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.DatabindException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The record writer that bypasses Jackson writes what Jackson writes, byte for byte, or leaves the record to
 * Jackson: checked against Jackson itself on random records, on text around every length boundary, and through a
 * method writer into a real queue.
 */
class RecordEncoderTest {
    @TempDir
    Path dir;

    /** A public getter that is no component: a property to Jackson. */
    public record WithGetter(int a) {
        public int getDoubled() {
            return a * 2;
        }
    }

    /** A boolean "is" method that is no component: also a property to Jackson. */
    public record WithIs(int a) {
        public boolean isBig() {
            return a > 1;
        }
    }

    /** Methods that Jackson does not take for properties. */
    public record WithOtherMethods(int a, String isin) {
        public static int getCount() {
            return 3;
        }

        public int half() {
            return a / 2;
        }

        public int getScaled(int by) {
            return a * by;
        }
    }

    public record Renamed(@JsonProperty("identifier") String id) {
    }

    public record Ping(Pong pong, long at) {
    }

    public record Pong(Ping ping, String note) {
    }

    public record Text(String value) {
    }

    public record Node(int value, Node next) {
    }

    @JsonIgnoreType
    public enum Ignored { A, B }

    @JsonIgnoreType
    public interface Hidden {
    }

    public enum HiddenByInterface implements Hidden { A, B }

    public record WithIgnoredEnum(int a, Ignored ignored) {
    }

    public record WithHiddenEnum(int a, HiddenByInterface hidden) {
    }

    public record Throwing(String id) {
        @Override
        public String id() {
            throw new IllegalStateException("no id today");
        }
    }

    public interface Throwers {
        void send(Throwing value);
    }

    public interface Events {
        void everything(Everything value);

        void inner(Inner value, Object any);
    }

    @Test
    void shouldWriteRandomRecordsByteForByteAsJacksonDoes() {
        Random random = new Random(2026_11_27);
        int written = 0;
        for (int n = 0; n < 5_000; n++) {
            written += compare(RandomRecords.everything(random)) ? 1 : 0;
            written += compare(new OddNames(random.nextBoolean(), RandomRecords.text(random), random.nextInt(),
                    random.nextInt(), random.nextLong())) ? 1 : 0;
            written += compare(new WithOtherMethods((int) RandomRecords.integer(random), RandomRecords.text(random)))
                    ? 1 : 0;
            written += compare(ping(random, random.nextInt(5))) ? 1 : 0;
        }
        assertThat(written).as("records written without Jackson").isEqualTo(20_000);
    }

    @Test
    void shouldWriteTextOfEveryLengthAsJacksonDoesUpToItsOnePieceLimit() {
        String[] characters = {"x", "é", "€", "\uD834\uDD1E"};
        int[] lengths = {0, 1, 22, 23, 24, 25, 254, 255, 256, 257, 1000, 3995, 3996, 3997, 4000, 21_844, 21_845,
            70_000};
        for (String character : characters) {
            for (int length : lengths) {
                StringBuilder text = new StringBuilder();
                while (text.length() < length) {
                    text.append(character);
                }
                Text record = new Text(text.toString());
                byte[] jackson = Cbor.SHARED.writeValueAsBytes(record);
                GrowableOutput direct = new GrowableOutput();
                boolean wrote = RecordEncoder.of(Text.class).write(record, direct);
                String what = text.length() + " chars of " + character;
                if (text.length() <= RecordEncoder.MAX_TEXT_CHARS) {
                    assertThat(wrote).as(what).isTrue();
                    assertThat(Arrays.copyOf(direct.buffer(), direct.count())).as(what).isEqualTo(jackson);
                } else {
                    assertThat(wrote).as(what).isFalse();
                    int head = jackson[1 + 1 + "value".length()] & 0xFF;
                    assertThat(head).as("Jackson writes %s in pieces", what).isEqualTo(0x7F);
                }
            }
        }
    }

    @Test
    void shouldLeaveUnpairedSurrogatesToJacksonWhichRefusesThem() {
        for (String text : List.of("\uD800", "a\uDC00", "\uD834x", "x\uDD1E\uD834")) {
            GrowableOutput direct = new GrowableOutput();
            assertThat(RecordEncoder.of(Text.class).write(new Text(text), direct)).isFalse();
            assertThatThrownBy(() -> Cbor.SHARED.writeValueAsBytes(new Text(text)))
                    .hasMessageContaining("surrogate");
        }
    }

    @Test
    void shouldLeaveRecordsNestedDeeperThanJacksonWritesToJackson() {
        Node chain = null;
        for (int depth = 1; depth <= 501; depth++) {
            chain = new Node(depth, chain);
            if (depth >= 499) {
                GrowableOutput direct = new GrowableOutput();
                boolean wrote = RecordEncoder.of(Node.class).write(chain, direct);
                if (depth <= 500) {
                    assertThat(wrote).as("%d deep", depth).isTrue();
                    assertThat(Arrays.copyOf(direct.buffer(), direct.count()))
                            .isEqualTo(Cbor.SHARED.writeValueAsBytes(chain));
                } else {
                    assertThat(wrote).as("%d deep", depth).isFalse();
                    Node tooDeep = chain;
                    assertThatThrownBy(() -> Cbor.SHARED.writeValueAsBytes(tooDeep)).hasMessageContaining("500");
                }
            }
        }
    }

    @Test
    void shouldLeaveAThrowingAccessorToJacksonWhoseErrorStands() {
        assertThat(RecordEncoder.of(Throwing.class).write(new Throwing("x"), new GrowableOutput())).isFalse();
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1L << 20).build()) {
            Throwers writer = Messages.methodWriter(queue.acquireAppender(), Throwers.class);
            assertThatThrownBy(() -> writer.send(new Throwing("x"))).isInstanceOf(DatabindException.class)
                    .hasMessageContaining("no id today");
            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(context.isPresent()).as("nothing published").isFalse();
            }
        }
    }

    @Test
    void shouldLeaveToJacksonRecordsItWouldWriteWithOtherKeys() {
        assertThat(RecordEncoder.of(WithIgnoredEnum.class)).isNull();
        assertThat(RecordEncoder.of(WithHiddenEnum.class)).isNull();
        assertThat(Cbor.SHARED.writeValueAsBytes(new WithIgnoredEnum(1, Ignored.A)))
                .as("Jackson leaves the enum out: {a: 1}")
                .isEqualTo(new byte[] {(byte) 0xBF, 0x61, 'a', 0x01, (byte) 0xFF});
        assertThat(RecordEncoder.of(WithGetter.class)).isNull();
        assertThat(RecordEncoder.of(WithIs.class)).isNull();
        assertThat(RecordEncoder.of(Renamed.class)).isNull();
        assertThat(RecordEncoder.of(String.class)).isNull();
        assertThat(RecordEncoder.of(WithOtherMethods.class)).isNotNull();
        assertThat(RecordEncoder.of(OddNames.class)).isNotNull();
        assertThat(RecordEncoder.of(Ping.class)).isNotNull();
    }

    @Test
    void shouldWriteDocumentsThatAMethodWriterWroteThroughJacksonBefore() {
        Random random = new Random(11_27);
        List<Everything> everything = new ArrayList<>();
        List<Inner> inners = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1L << 20).build()) {
            Events writer = Messages.methodWriter(queue.acquireAppender(), Events.class);
            for (int n = 0; n < 500; n++) {
                Everything value = RandomRecords.everything(random);
                everything.add(value);
                writer.everything(value);
                Inner inner = RandomRecords.inner(random, 1 + random.nextInt(3));
                inners.add(inner);
                writer.inner(inner, n % 3 == 0 ? inner : "text " + n);
            }
            // a record Jackson refuses fails the call and publishes nothing, as it did through Jackson
            assertThatThrownBy(() -> writer.inner(new Inner("\uD800", 1, null), null))
                    .hasMessageContaining("surrogate");

            ExcerptTailer tailer = queue.createTailer();
            for (int n = 0; n < 500; n++) {
                assertThat(documents(tailer)).containsExactly(Cbor.SHARED.writeValueAsBytes(everything.get(n)));
                byte[] any = Cbor.SHARED.writeValueAsBytes(n % 3 == 0 ? inners.get(n) : "text " + n);
                assertThat(documents(tailer)).containsExactly(Cbor.SHARED.writeValueAsBytes(inners.get(n)), any);
            }
            try (ReadContext context = tailer.readingDocument()) {
                assertThat(context.isPresent()).as("nothing after the refused call").isFalse();
            }
        }
    }

    /**
     * The documents of the next message's arguments, as written; a positional record (the values only) as the
     * document its type's names make of it.
     */
    private static List<byte[]> documents(ExcerptTailer tailer) {
        try (ReadContext context = tailer.readingDocument()) {
            assertThat(context.isPresent()).isTrue();
            ExcerptBytes bytes = context.bytes();
            MessageHeader header = new MessageHeader();
            assertThat(header.read(bytes, context.index(), null)).isTrue();
            List<byte[]> documents = new ArrayList<>();
            for (int i = 0; i < header.argumentCount; i++) {
                byte tag = bytes.readByte();
                assertThat(tag).isIn(MessageLayout.COMPACT_DOCUMENT, MessageLayout.RECORD);
                byte[] document = new byte[MessageLayout.readLength(bytes)];
                bytes.readBytes(document);
                if (tag == MessageLayout.RECORD) {
                    long id = ByteBuffer.wrap(document).order(ByteOrder.LITTLE_ENDIAN).getLong();
                    PositionalRecords record = new PositionalRecords();
                    byte[] values = Arrays.copyOfRange(document, Long.BYTES, document.length);
                    record.rewrite(values, values.length, MessageTypes.known(id));
                    document = Arrays.copyOf(record.buffer(), record.count());
                }
                documents.add(document);
            }
            return documents;
        }
    }

    /** Writes {@code record} both ways; true when cq wrote it, after checking it wrote Jackson's bytes. */
    private static boolean compare(Object record) {
        GrowableOutput direct = new GrowableOutput();
        RecordEncoder encoder = RecordEncoder.of(record.getClass());
        assertThat(encoder).as("an encoder for %s", record.getClass()).isNotNull();
        if (!encoder.write(record, direct)) {
            return false;
        }
        assertThat(Arrays.copyOf(direct.buffer(), direct.count())).as("%s", record)
                .isEqualTo(Cbor.SHARED.writerFor(record.getClass()).writeValueAsBytes(record))
                .isEqualTo(Cbor.SHARED.writeValueAsBytes(record));
        return true;
    }

    private static Ping ping(Random random, int depth) {
        Pong pong = depth == 0 ? null : new Pong(depth == 1 ? null : ping(random, depth - 2),
                random.nextBoolean() ? null : RandomRecords.text(random));
        return new Ping(pong, RandomRecords.integer(random));
    }
}
