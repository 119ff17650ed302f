package io.cq.core.internal.message;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import io.cq.core.internal.message.RandomRecords.Everything;
import io.cq.core.internal.message.RandomRecords.Inner;
import io.cq.core.internal.message.RandomRecords.OddNames;
import io.cq.core.internal.message.RandomRecords.Side;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectReader;

import java.io.ByteArrayOutputStream;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The record reader that bypasses Jackson returns what Jackson returns, or leaves the document to Jackson: checked
 * against Jackson itself on random records, on documents crafted to differ from what Jackson writes, and on
 * random corruptions of written documents. Documents are read from excerpts of a real queue, as a reader reads them.
 */
class RecordDecoderTest {
    /** A reader's Jackson, as {@link ObjectMessages} builds it for the type. */
    private static final ClassValue<ObjectReader> JACKSON = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return Cbor.mapper(AllowList.reachableFrom(type)).readerFor(type);
        }
    };

    @TempDir
    Path dir;

    public record Small(String id, long quantity, double price, Side side, Inner inner, int count, float ratio,
                        byte tiny, Boolean flag) {
    }

    public record Refusing(String id) {
        public Refusing {
            if (id.isEmpty()) {
                throw new IllegalArgumentException("an id is needed");
            }
        }
    }

    public record Renamed(@JsonProperty("identifier") String id) {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
    @JsonSubTypes(@JsonSubTypes.Type(Typed.class))
    public interface Polymorphic {
    }

    public record Typed(String id) implements Polymorphic {
    }

    @Retention(RetentionPolicy.RUNTIME)
    @JacksonAnnotationsInside
    @JsonIgnoreProperties(ignoreUnknown = false)
    public @interface Strict {
    }

    @Strict
    public record Bundled(String id) {
    }

    public record Generic<T>(T value) {
    }

    public record WithList(List<String> values) {
    }

    public record WithChar(char c) {
    }

    public record Holder(WithList inner) {
    }

    /** Two constants that Jackson would write as the same text. */
    public enum Clashing {
        A, B;

        @Override
        public String toString() {
            return "same";
        }
    }

    public record WithClashing(Clashing value) {
    }

    @Test
    void shouldDecodeRandomRecordsExactlyAsJacksonDoesWithoutJackson() {
        Random random = new Random(18_3);
        List<Object> written = new ArrayList<>();
        for (int n = 0; n < 2_000; n++) {
            written.add(RandomRecords.everything(random));
            written.add(new OddNames(random.nextBoolean(), RandomRecords.text(random), random.nextInt(),
                    random.nextInt(), random.nextLong()));
        }
        List<byte[]> documents = written.stream().map(Cbor.SHARED::writeValueAsBytes).toList();

        List<Outcome> outcomes = decodeAll(documents, written.stream().<Class<?>>map(Object::getClass).toList());

        for (int n = 0; n < written.size(); n++) {
            Outcome outcome = outcomes.get(n);
            assertThat(outcome.jackson).as("Jackson reads what it wrote").isEqualTo(written.get(n));
            assertThat(outcome.direct).as("read without Jackson: %s", written.get(n)).isEqualTo(written.get(n));
        }
    }

    @Test
    void shouldLeaveToJacksonWhatItDoesNotReadAsJacksonDoes() {
        Small valid = new Small("o-1", 42, 189.25, Side.BUY, new Inner("n", -1, null), 7, 0.5f, (byte) -3, true);
        List<byte[]> documents = new ArrayList<>();
        // decoded without Jackson
        documents.add(Cbor.SHARED.writeValueAsBytes(valid));
        documents.add(small(e -> e.definiteMap()));
        documents.add(small(e -> e.reversed()));
        documents.add(small(e -> e.replace("price", w -> w.f32(189.25f))));
        documents.add(small(e -> e.replace("inner", w -> w.nul()).replace("flag", w -> w.nul())
                .replace("side", w -> w.nul()).replace("id", w -> w.nul())));
        int decodedDirectly = documents.size();
        // left to Jackson: what Jackson reads more leniently, or refuses
        List<String> leftToJackson = List.of("unknown key", "missing key", "duplicate key", "int for double",
                "double for float", "text for long", "int too large", "byte of 200", "null for primitive",
                "index for enum", "unknown enum", "enum in another case", "half float", "tagged", "indefinite text",
                "invalid UTF-8", "overlong UTF-8", "encoded surrogate", "trailing bytes", "array",
                "definite map cut short", "text length too large", "cut short", "non-text key", "long beyond a long");
        documents.add(small(e -> e.add("extra", w -> w.text("x"))));
        documents.add(small(e -> e.remove("count")));
        documents.add(small(e -> e.add("id", w -> w.text("again"))));
        documents.add(small(e -> e.replace("price", w -> w.integer(189))));
        documents.add(small(e -> e.replace("ratio", w -> w.f64(0.5))));
        documents.add(small(e -> e.replace("quantity", w -> w.text("42"))));
        documents.add(small(e -> e.replace("count", w -> w.integer(1L << 40))));
        documents.add(small(e -> e.replace("tiny", w -> w.integer(200))));
        documents.add(small(e -> e.replace("quantity", w -> w.nul())));
        documents.add(small(e -> e.replace("side", w -> w.integer(1))));
        documents.add(small(e -> e.replace("side", w -> w.text("HOLD"))));
        documents.add(small(e -> e.replace("side", w -> w.text("buy"))));
        documents.add(small(e -> e.replace("price", w -> w.raw(0xF9, 0x3C, 0x00))));
        documents.add(small(e -> e.replace("quantity", w -> w.raw(0xC6).integer(42))));
        documents.add(small(e -> e.replace("id", w -> w.raw(0x7F, 0x61, 'o', 0xFF))));
        documents.add(small(e -> e.replace("id", w -> w.raw(0x62, 0xC3, 0x28))));
        documents.add(small(e -> e.replace("id", w -> w.raw(0x62, 0xC1, 0x81))));
        documents.add(small(e -> e.replace("id", w -> w.raw(0x63, 0xED, 0xA0, 0x80))));
        documents.add(concat(Cbor.SHARED.writeValueAsBytes(valid), new byte[] {0x01}));
        documents.add(new byte[] {(byte) 0x81, 0x01});
        documents.add(new byte[] {(byte) 0xA9, 0x62, 'i', 'd', 0x61, 'o'});
        documents.add(new byte[] {(byte) 0xBF, 0x62, 'i', 'd', 0x7A, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        documents.add(Arrays.copyOf(Cbor.SHARED.writeValueAsBytes(valid), 20));
        documents.add(small(e -> e.add(w -> w.integer(1), w -> w.text("x"))));
        documents.add(small(e -> e.replace("quantity", w -> w.raw(0x1B, 0x80, 0, 0, 0, 0, 0, 0, 0))));
        assertThat(documents).hasSize(decodedDirectly + leftToJackson.size());

        List<Outcome> outcomes = decodeAll(documents, documents.stream().<Class<?>>map(d -> Small.class).toList());

        for (int n = 0; n < documents.size(); n++) {
            Outcome outcome = outcomes.get(n);
            String what = n < decodedDirectly ? "valid variant " + n : leftToJackson.get(n - decodedDirectly);
            outcome.assertConsistent(what);
            if (n < decodedDirectly) {
                assertThat(outcome.direct).as(what).isNotSameAs(RecordDecoder.NOT_DECODED).isEqualTo(outcome.jackson);
            } else {
                assertThat(outcome.direct).as(what).isSameAs(RecordDecoder.NOT_DECODED);
            }
        }
    }

    @Test
    void shouldReturnWhatJacksonReturnsOrLeaveItToJacksonForCorruptedDocuments() {
        Random random = new Random(18_3_2);
        List<byte[]> documents = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            byte[] document = Cbor.SHARED.writeValueAsBytes(RandomRecords.everything(random));
            switch (random.nextInt(4)) {
                case 0 -> document = Arrays.copyOf(document, random.nextInt(document.length));
                case 1 -> {
                    for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                        document[random.nextInt(document.length)] = (byte) random.nextInt(256);
                    }
                }
                case 2 -> document[random.nextInt(document.length)] ^= (byte) (1 << random.nextInt(8));
                default -> {
                    int at = random.nextInt(document.length);
                    byte[] inserted = new byte[1 + random.nextInt(3)];
                    random.nextBytes(inserted);
                    document = concat(concat(Arrays.copyOf(document, at), inserted),
                            Arrays.copyOfRange(document, at, document.length));
                }
            }
            documents.add(document);
        }

        List<Outcome> outcomes = decodeAll(documents,
                documents.stream().<Class<?>>map(d -> Everything.class).toList());

        int direct = 0;
        for (int n = 0; n < outcomes.size(); n++) {
            outcomes.get(n).assertConsistent("corrupted document " + n);
            direct += outcomes.get(n).direct == RecordDecoder.NOT_DECODED ? 0 : 1;
        }
        // the corruptions that still leave a valid record (a changed digit, a changed character) are read directly
        assertThat(direct).isGreaterThan(100);
    }

    @Test
    void shouldLeaveRecordsNestedBeyondTheLimitsToJackson() {
        List<byte[]> documents = new ArrayList<>();
        for (int depth = 490; depth <= 510; depth++) {
            documents.add(chain(depth));
        }

        List<Outcome> outcomes = decodeAll(documents, documents.stream().<Class<?>>map(d -> Inner.class).toList());

        for (int n = 0; n < outcomes.size(); n++) {
            outcomes.get(n).assertConsistent("records nested " + (490 + n) + " deep");
        }
        assertThat(outcomes.getFirst().direct).isNotSameAs(RecordDecoder.NOT_DECODED);
        assertThat(outcomes.getLast().direct).isSameAs(RecordDecoder.NOT_DECODED);
    }

    /** {@code depth} {@link Inner} records, each the {@code next} of the one before. */
    private static byte[] chain(int depth) {
        Writer writer = new Writer();
        for (int level = 0; level < depth; level++) {
            writer.indefiniteMap().text("name").text("n" + level).text("value").integer(level).text("next");
        }
        writer.nul();
        for (int level = 0; level < depth; level++) {
            writer.end();
        }
        return writer.bytes();
    }

    @Test
    void shouldReadOnItsOwnOnlyRecordsJacksonReadsPlainly() {
        assertThat(RecordPlan.of(Everything.class)).isNotNull();
        assertThat(RecordPlan.of(OddNames.class)).isNotNull();
        assertThat(RecordPlan.of(Refusing.class)).isNotNull();
        for (Class<?> type : List.of(Renamed.class, Typed.class, Bundled.class, Generic.class, WithList.class,
                WithChar.class, Holder.class, WithClashing.class, String.class, Side.class, Object.class)) {
            assertThat(RecordPlan.of(type)).as(type.getSimpleName()).isNull();
        }
    }

    @Test
    void shouldLeaveAConstructorsRefusalToJackson() {
        List<Outcome> outcomes = decodeAll(List.of(new Writer().indefiniteMap().text("id").text("").end().bytes()),
                List.of(Refusing.class));

        assertThat(outcomes.getFirst().direct).isSameAs(RecordDecoder.NOT_DECODED);
        assertThat(outcomes.getFirst().jacksonFailure).contains("an id is needed");
    }

    /** What each reader made of one document. */
    private record Outcome(Object direct, boolean withinLimits, Object jackson, String jacksonFailure) {
        /** Read without Jackson only where Jackson, after the limits check, reads the same value. */
        void assertConsistent(String what) {
            if (direct != RecordDecoder.NOT_DECODED) {
                assertThat(withinLimits).as("%s: read directly but beyond the limits", what).isTrue();
                assertThat(jacksonFailure).as("%s: read directly but Jackson refuses it", what).isNull();
                assertThat(direct).as(what).isEqualTo(jackson);
            }
        }
    }

    private List<Outcome> decodeAll(List<byte[]> documents, List<Class<?>> types) {
        List<Outcome> outcomes = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            for (byte[] document : documents) {
                try (WriteContext context = queue.acquireAppender().writingDocument()) {
                    context.bytes().writeBytes(document);
                }
            }
            ExcerptTailer tailer = queue.createTailer();
            RecordDecoder decoder = new RecordDecoder();
            for (int n = 0; n < documents.size(); n++) {
                byte[] document = documents.get(n);
                Class<?> type = types.get(n);
                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(context.isPresent()).isTrue();
                    Object direct = decoder.read(context.bytes(), RecordPlan.of(type));
                    outcomes.add(jackson(document, type, direct));
                }
            }
        }
        return outcomes;
    }

    private static Outcome jackson(byte[] document, Class<?> type, Object direct) {
        boolean withinLimits;
        try {
            CborLimits.check(document, 0, document.length);
            withinLimits = true;
        } catch (IllegalArgumentException e) {
            withinLimits = false;
        }
        ObjectReader reader = JACKSON.get(type);
        try {
            return new Outcome(direct, withinLimits, reader.readValue(document), null);
        } catch (RuntimeException e) {
            return new Outcome(direct, withinLimits, null, String.valueOf(e.getMessage()));
        }
    }

    /** A {@link Small} written key by key in Jackson's order, with the edits given. */
    private static byte[] small(UnaryOperator<Entries> edit) {
        Entries entries = new Entries()
                .add("id", w -> w.text("o-1"))
                .add("quantity", w -> w.integer(42))
                .add("price", w -> w.f64(189.25))
                .add("side", w -> w.text("BUY"))
                .add("inner", w -> w.indefiniteMap().text("name").text("n").text("value").integer(-1)
                        .text("next").nul().end())
                .add("count", w -> w.integer(7))
                .add("ratio", w -> w.f32(0.5f))
                .add("tiny", w -> w.integer(-3))
                .add("flag", w -> w.raw(0xF5));
        return edit.apply(entries).write();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** The entries of a map, each a key writer and a value writer, edited before the map is written. */
    private static final class Entries {
        private final List<Consumer<Writer>> keys = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private final List<Consumer<Writer>> values = new ArrayList<>();
        private boolean definite;
        private boolean reversed;

        Entries add(String name, Consumer<Writer> value) {
            return add(w -> w.text(name), value, name);
        }

        Entries add(Consumer<Writer> key, Consumer<Writer> value) {
            return add(key, value, null);
        }

        private Entries add(Consumer<Writer> key, Consumer<Writer> value,
                            String name) {
            keys.add(key);
            values.add(value);
            names.add(name);
            return this;
        }

        Entries replace(String name, Consumer<Writer> value) {
            values.set(names.indexOf(name), value);
            return this;
        }

        Entries remove(String name) {
            int at = names.indexOf(name);
            keys.remove(at);
            values.remove(at);
            names.remove(at);
            return this;
        }

        Entries definiteMap() {
            definite = true;
            return this;
        }

        Entries reversed() {
            reversed = true;
            return this;
        }

        byte[] write() {
            Writer writer = new Writer();
            if (definite) {
                writer.head(5, keys.size());
            } else {
                writer.indefiniteMap();
            }
            for (int n = 0; n < keys.size(); n++) {
                int at = reversed ? keys.size() - 1 - n : n;
                keys.get(at).accept(writer);
                values.get(at).accept(writer);
            }
            if (!definite) {
                writer.end();
            }
            return writer.bytes();
        }
    }

    /** CBOR items written by hand, so that a document can hold what Jackson would never write. */
    private static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Writer head(int major, long argument) {
            if (argument < 24) {
                out.write(major << 5 | (int) argument);
            } else if (argument < 256) {
                out.write(major << 5 | 24);
                out.write((int) argument);
            } else if (argument < 65_536) {
                out.write(major << 5 | 25);
                out.write((int) (argument >>> 8));
                out.write((int) argument);
            } else if (argument < 1L << 32) {
                out.write(major << 5 | 26);
                for (int shift = 24; shift >= 0; shift -= 8) {
                    out.write((int) (argument >>> shift));
                }
            } else {
                out.write(major << 5 | 27);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    out.write((int) (argument >>> shift));
                }
            }
            return this;
        }

        Writer integer(long value) {
            return value >= 0 ? head(0, value) : head(1, -1 - value);
        }

        Writer text(String value) {
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            head(3, utf8.length);
            out.writeBytes(utf8);
            return this;
        }

        Writer f64(double value) {
            out.write(0xFB);
            long bits = Double.doubleToRawLongBits(value);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (bits >>> shift));
            }
            return this;
        }

        Writer f32(float value) {
            out.write(0xFA);
            int bits = Float.floatToRawIntBits(value);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write(bits >>> shift);
            }
            return this;
        }

        Writer nul() {
            out.write(0xF6);
            return this;
        }

        Writer indefiniteMap() {
            out.write(0xBF);
            return this;
        }

        Writer end() {
            out.write(0xFF);
            return this;
        }

        Writer raw(int... bytes) {
            for (int b : bytes) {
                out.write(b);
            }
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
