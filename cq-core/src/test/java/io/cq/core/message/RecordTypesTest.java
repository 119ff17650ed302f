package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.message.RecordTypesProcess.Level;
import io.cq.core.message.RecordTypesProcess.Market;
import io.cq.core.message.RecordTypesProcess.Quote;
import io.cq.core.message.RecordTypesProcess.Trade;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Method writers write a record's values only, its names once per queue in the record types file
 * (docs/file-format.md, "Record types"); readers whose record is the writer's read the values in order, others by
 * the names in the file, in any process and from any index.
 */
class RecordTypesTest {
    @TempDir
    Path dir;

    private static final Quote QUOTE = new Quote("AAPL", 189.27, 189.29, 300, 500);

    @Test
    void shouldWriteARecordsFieldNamesOnceInTheQueueInsteadOfInEveryMessage() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Market writer = Messages.methodWriter(queue.acquireAppender(), Market.class);
            for (int i = 0; i < 100; i++) {
                writer.quote(QUOTE);
            }
            try (ExcerptTailer tailer = queue.createTailer(); ReadContext context = tailer.readingDocument()) {
                ExcerptBytes bytes = context.bytes();
                byte[] excerpt = new byte[(int) bytes.length()];
                bytes.readBytes(excerpt);
                assertThat(new String(excerpt, StandardCharsets.ISO_8859_1)).doesNotContain("symbol", "bidSize");
                // header 12, tag R, length, type id 8, "AAPL" 5, two doubles 9 each, 300 and 500 3 each
                assertThat(excerpt).hasSize(12 + 1 + 1 + 8 + 5 + 9 + 9 + 3 + 3);
            }
        }
        String types = Files.readString(dir.resolve("message-types.cq4m"), StandardCharsets.ISO_8859_1);
        assertThat(types.split("bidSize", -1)).as("the names, once").hasSize(2);
    }

    @Test
    void shouldReadRecordsBackWithEveryValueAsWritten() {
        List<Object> read = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Market writer = Messages.methodWriter(queue.acquireAppender(), Market.class);
            writer.quote(QUOTE);
            writer.quote(new Quote(null, -0.0, Double.NaN, Long.MIN_VALUE, Long.MAX_VALUE));
            writer.level(new Level(1e-300, -1));
            writer.trade(new Trade("é€😀", 0));
            MethodReader reader = Messages.methodReader(queue.createTailer(), new Market() {
                @Override
                public void quote(Quote quote) {
                    read.add(quote);
                }

                @Override
                public void trade(Trade trade) {
                    read.add(trade);
                }

                @Override
                public void level(Level level) {
                    read.add(level);
                }
            });
            while (reader.readOne()) {
                // all four
            }
        }
        assertThat(read).containsExactly(QUOTE, new Quote(null, -0.0, Double.NaN, Long.MIN_VALUE, Long.MAX_VALUE),
                new Level(1e-300, -1), new Trade("é€😀", 0));
    }

    @Test
    void shouldRenderRecordsWithTheirFieldNames() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Market.class).quote(QUOTE);
            try (ExcerptTailer tailer = queue.createTailer(); ReadContext context = tailer.readingDocument()) {
                assertThat(ExcerptRendering.text(context.bytes(), true)).isEqualTo(
                        "quote [{\"symbol\":\"AAPL\",\"bid\":189.27,\"ask\":189.29,\"bidSize\":300,\"askSize\":500}]");
            }
        }
    }

    /** Field names would be in the clear beside the encrypted excerpts: they stay inside them. */
    @Test
    void shouldKeepRecordsWithTheirNamesInsideTheExcerptsOfAnEncryptedQueue() {
        ExcerptCodecs encrypted = ExcerptCodecs.none()
                .withEncryption(EncryptionKeys.of(new SecretKeySpec(new byte[32], "AES")));
        List<Quote> read = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).codecs(encrypted).build()) {
            Messages.methodWriter(queue.acquireAppender(), Market.class).quote(QUOTE);
            Messages.methodReader(queue.createTailer(), new QuoteReader(read)).readOne();
        }
        assertThat(read).containsExactly(QUOTE);
        assertThat(dir.resolve("message-types.cq4m")).doesNotExist();
    }

    @Test
    void shouldGiveTheRecordTypesFileTheQueuesFilePermissions() throws Exception {
        Set<PosixFilePermission> shared = PosixFilePermissions.fromString("rw-rw----");
        try (MappedQueue queue = MappedQueue.builder(dir).filePermissions(shared).build()) {
            Messages.methodWriter(queue.acquireAppender(), Market.class).quote(QUOTE);
        }
        assertThat(Files.getPosixFilePermissions(dir.resolve("message-types.cq4m"))).isEqualTo(shared);
    }

    @Test
    void shouldWriteRecordsWithTheirNamesWhereTheRecordTypesFileIsNotOne() throws Exception {
        Files.writeString(dir.resolve("message-types.cq4m"), "not cq's");
        List<Quote> read = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Market.class).quote(QUOTE);
            try (ExcerptTailer tailer = queue.createTailer(); ReadContext context = tailer.readingDocument()) {
                ExcerptBytes bytes = context.bytes();
                byte[] excerpt = new byte[(int) bytes.length()];
                bytes.readBytes(excerpt);
                assertThat(new String(excerpt, StandardCharsets.ISO_8859_1)).contains("symbol", "bidSize");
            }
            Messages.methodReader(queue.createTailer(), new QuoteReader(read)).readOne();
        }
        assertThat(read).containsExactly(QUOTE);
        assertThat(Files.readString(dir.resolve("message-types.cq4m"))).isEqualTo("not cq's");
    }

    /** Collects the quotes. */
    private record QuoteReader(List<Quote> quotes) implements Market {
        @Override
        public void quote(Quote quote) {
            quotes.add(quote);
        }

        @Override
        public void trade(Trade trade) {
        }

        @Override
        public void level(Level level) {
        }
    }

    /**
     * Two processes define the same type and one each of their own at once; a third, which has never seen them,
     * starts in the middle of the queue and reads the quotes with another version of the record, by name.
     */
    @Test
    void shouldReadTypesDefinedConcurrentlyByOtherProcessesFromTheMiddleOfTheQueue() throws Exception {
        int perWriter = 2_000;
        try (ChildJvm writer = ChildJvm.start(RecordTypesProcess.class, "write", dir.toString(),
                Integer.toString(perWriter));
             MappedQueue queue = MappedQueue.builder(dir).build()) {
            writer.awaitLine("writing", 60, TimeUnit.SECONDS);
            Market market = Messages.methodWriter(queue.acquireAppender(), Market.class);
            for (int i = 0; i < perWriter; i++) {
                market.quote(new Quote("P" + i, i, i + 0.5, i, 2L * i));
                market.level(new Level(i, i));
            }
            assertThat(writer.awaitExit(60, TimeUnit.SECONDS)).isZero();
        }
        long middle;
        long[] expected = new long[4];
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 2 * perWriter; i++) {
                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(context.isPresent()).isTrue();
                }
            }
            middle = tailer.index();
            MethodReader reader = Messages.methodReader(tailer, new Market() {
                @Override
                public void quote(Quote quote) {
                    expected[0]++;
                    expected[3] += quote.askSize();
                }

                @Override
                public void trade(Trade trade) {
                    expected[1]++;
                }

                @Override
                public void level(Level level) {
                    expected[2]++;
                }
            });
            while (reader.readOne()) {
                // the second half
            }
        }
        assertThat(expected[0]).as("quotes in the second half").isPositive();

        List<String> lines = ChildJvm.runToEnd(true, RecordTypesProcess.class, "read", dir.toString(),
                Long.toString(middle));

        assertThat(lines).contains("quotes " + expected[0] + " trades " + expected[1] + " levels " + expected[2]
                + " askSizes " + expected[3]);
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("rendered ")
                .containsAnyOf("{\"symbol\":", "{\"price\":"));
    }
}
