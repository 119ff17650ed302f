package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method writer defines a record type in the queue's types file (a write and an fsync) before it takes the write
 * lock, never under it, so no other writer of the queue waits on that I/O (docs/file-format.md, "Record types").
 */
class RecordTypeDefinitionTest {
    @TempDir
    Path dir;

    public record Fill(String fillSymbol, long fillQuantity) {
    }

    public interface Fills {
        void fill(Fill fill);

        void anything(Object value);
    }

    /**
     * An appender that notes, each time a write context is asked for (the write lock taken), what the types file
     * holds at that moment.
     */
    private static final class Watching implements ExcerptAppender {
        private final ExcerptAppender appender;
        private final Path types;
        final List<String> typesWhenLocked = new ArrayList<>();

        Watching(ExcerptAppender appender, Path types) {
            this.appender = appender;
            this.types = types;
        }

        @Override
        public WriteContext writingDocument() {
            try {
                typesWhenLocked.add(Files.exists(types) ? Files.readString(types, StandardCharsets.ISO_8859_1) : "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return appender.writingDocument();
        }

        @Override
        public boolean isClosed() {
            return appender.isClosed();
        }

        @Override
        public long writeText(CharSequence text) {
            return appender.writeText(text);
        }

        @Override
        public long lastIndexAppended() {
            return appender.lastIndexAppended();
        }

        @Override
        public MappedQueue queue() {
            return appender.queue();
        }

        @Override
        public void close() {
            appender.close();
        }
    }

    private static List<String> excerpts(MappedQueue queue) {
        List<String> excerpts = new ArrayList<>();
        try (ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        return excerpts;
                    }
                    ExcerptBytes bytes = context.bytes();
                    byte[] excerpt = new byte[(int) bytes.length()];
                    bytes.readBytes(excerpt);
                    excerpts.add(new String(excerpt, StandardCharsets.ISO_8859_1));
                }
            }
        }
    }

    @Test
    void shouldDefineARecordParametersTypeBeforeTakingTheWriteLockForItsFirstMessage() {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             Watching appender = new Watching(queue.acquireAppender(), dir.resolve("message-types.cq4m"))) {
            Fills fills = Messages.methodWriter(appender, Fills.class);

            fills.fill(new Fill("EURUSD", 1_000));

            assertThat(appender.typesWhenLocked).hasSize(1);
            assertThat(appender.typesWhenLocked.getFirst()).as("the types file as the lock was taken")
                    .contains("fillSymbol", "fillQuantity");
            assertThat(excerpts(queue).getFirst()).as("the first message already positional")
                    .doesNotContain("fillSymbol");
        }
    }

    @Test
    void shouldWriteARecordInAnObjectParameterWithItsNamesOnceThenDefineItsTypeAfterTheLock() {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             Watching appender = new Watching(queue.acquireAppender(), dir.resolve("message-types.cq4m"))) {
            Fills fills = Messages.methodWriter(appender, Fills.class);

            fills.anything(new Fill("GBPJPY", 250));
            fills.anything(new Fill("GBPJPY", 500));

            assertThat(appender.typesWhenLocked.getFirst()).as("nothing defined while the first message was written")
                    .doesNotContain("fillSymbol");
            assertThat(appender.typesWhenLocked.get(1)).as("defined after the first message's lock was released")
                    .contains("fillSymbol");
            List<String> excerpts = excerpts(queue);
            assertThat(excerpts.get(0)).as("the first with its names").contains("fillSymbol", "fillQuantity");
            assertThat(excerpts.get(1)).as("the second positional").doesNotContain("fillSymbol");
        }
    }
}
