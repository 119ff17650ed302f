package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class DocumentsAndObjectsTest {
    @TempDir
    Path dir;

    public record Fill(String order, long quantity, Instant at, Map<String, List<Double>> legs) {
    }

    @Test
    void shouldWriteAndReadDocumentsThroughTheCursor() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            long index = appender.writeDocument(bytes -> bytes.writeUtf8("AAPL").writeLong(100));
            appender.writeDocument(bytes -> bytes.writeInt(2));

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.index()).isEqualTo(index);
            StringBuilder seen = new StringBuilder();
            assertThat(tailer.readDocument(bytes -> seen.append(bytes.readUtf8()).append(bytes.readLong()))).isTrue();
            assertThat(tailer.readDocument(bytes -> seen.append(' ').append(bytes.readInt()))).isTrue();
            assertThat(tailer.readDocument(bytes -> seen.append("never"))).isFalse();
            assertThat(seen).hasToString("AAPL100 2");
        }
    }

    @Test
    void shouldRollBackADocumentWhoseWriteFails() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            appender.writeDocument(bytes -> bytes.writeUtf8("AAPL").writeLong(100));
            assertThatThrownBy(() -> appender.writeDocument(bytes -> {
                bytes.writeInt(1);
                throw new IllegalStateException("changed my mind");
            })).hasMessage("changed my mind");
            appender.writeDocument(bytes -> bytes.writeInt(2));
            assertThat(queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1)).isEqualTo(2);
        }
    }

    @Test
    void shouldRollBackADocumentWhoseReadFails() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            appender.writeDocument(bytes -> bytes.writeUtf8("AAPL").writeLong(100));

            ExcerptTailer tailer = queue.createTailer();
            assertThatThrownBy(() -> tailer.readDocument(bytes -> {
                throw new IllegalStateException("not now");
            })).hasMessage("not now");
            StringBuilder seen = new StringBuilder();
            assertThat(tailer.readDocument(bytes -> seen.append(bytes.readUtf8()).append(bytes.readLong()))).isTrue();
            assertThat(seen).hasToString("AAPL100");
        }
    }

    @Test
    void shouldWriteAndReadObjectsAsSelfDescribingDocuments() {
        Fill fill = new Fill("o-1", 300, Instant.parse("2026-11-22T17:01:02Z"), Map.of("a", List.of(1.5, 2.5)));
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            Messages.writeObject(appender, fill);
            Messages.writeObject(appender, List.of("x", "y"));

            ExcerptTailer tailer = queue.createTailer();
            assertThat(Messages.readObject(tailer, Fill.class)).isEqualTo(fill);
            assertThat(Messages.readObject(tailer, List.class)).isEqualTo(List.of("x", "y"));
        }
    }

    @Test
    void shouldRefuseToReadAnExcerptThatIsNotAMessageAsAnObject() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("raw");

            ExcerptTailer tailer = queue.createTailer();
            assertThatThrownBy(() -> Messages.readObject(tailer, Fill.class))
                    .isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("not a message");
        }
    }

    @Test
    void shouldMovePastAnExcerptItRefusedToReadAsAnObject() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("raw");
            ExcerptTailer tailer = queue.createTailer();
            catchThrowable(() -> Messages.readObject(tailer, Fill.class));

            assertThat(Messages.readObject(tailer, Fill.class)).isNull();
        }
    }

    private static final Fill FILL = new Fill("o-2", 7, Instant.parse("2026-11-22T17:30:00Z"), Map.of());

    /** Writes {@link #FILL} as an object, then a raw text; returns the object's index. */
    private static long appendAFillAndAText(MappedQueue queue) {
        long index = Messages.writeObject(queue.acquireAppender(), FILL);
        queue.acquireAppender().writeText("raw");
        return index;
    }

    @Test
    void shouldDecodeAnObjectInsideAReadContextWithoutMovingItsCursor() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendAFillAndAText(queue);

            ExcerptTailer tailer = queue.createTailer("decoder");
            try (io.cq.core.ReadContext dc = tailer.readingDocument()) {
                assertThat(Messages.readObject(dc, Fill.class)).isEqualTo(FILL);
                assertThat(dc.bytes().position()).isZero();
            }
        }
    }

    @Test
    void shouldLeaveCommitOrRollbackToTheReadContextAnObjectIsDecodedIn() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long index = appendAFillAndAText(queue);

            ExcerptTailer tailer = queue.createTailer("decoder");
            try (io.cq.core.ReadContext dc = tailer.readingDocument()) {
                assertThat(Messages.readObject(dc, Fill.class)).isEqualTo(FILL);
                dc.rollbackOnClose();
            }
            assertThat(tailer.index()).isEqualTo(index);
            try (io.cq.core.ReadContext dc = tailer.readingDocument()) {
                assertThat(Messages.readObject(dc, Fill.class)).isEqualTo(FILL);
            }
            assertThat(tailer.index()).isEqualTo(index + 1);
        }
    }

    @Test
    void shouldRefuseToDecodeAnObjectFromAReadContextThatHoldsNoMessage() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendAFillAndAText(queue);

            ExcerptTailer tailer = queue.createTailer("decoder");
            tailer.readingDocument().close();
            try (io.cq.core.ReadContext dc = tailer.readingDocument()) {
                assertThatThrownBy(() -> Messages.readObject(dc, Fill.class))
                        .isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("not a message");
            }
            assertThat(tailer.readText()).isNull();
        }
    }
}
