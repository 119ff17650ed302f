package io.cq.core.message;

import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Crafted documents that make a CBOR decoder work hard or trust what it should not (chains of hundreds of
 * thousands of tags, deep nesting, counts and lengths larger than the document) are refused in linear time, one
 * excerpt at a time, and reading goes on after them.
 */
class CborLimitsTest {
    @TempDir
    Path dir;

    public record Note(String text) {
    }

    public interface Notes {
        void note(Note note);
    }

    /** Four hostile documents (endless tags, deep nesting, a huge array, a long text), then a good note. */
    private static void appendHostileDocumentsThenANote(MappedQueue queue) {
        byte[] tags = new byte[400_001];
        Arrays.fill(tags, 0, 400_000, (byte) 0xC6);
        tags[400_000] = 0x01;
        byte[] deep = new byte[100_001];
        Arrays.fill(deep, 0, 100_000, (byte) 0x81);
        deep[100_000] = 0x01;
        byte[] hugeArray = {(byte) 0x9B, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF};
        byte[] longText = {0x7A, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 'a'};
        Notes writer = Messages.methodWriter(queue.acquireAppender(), Notes.class);
        for (byte[] hostile : List.of(tags, deep, hugeArray, longText)) {
            CraftedMessages.append(queue, "note", hostile);
        }
        writer.note(new Note("still read"));
    }

    @Test
    void shouldRefuseHostileDocumentsQuickly() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendHostileDocumentsThenANote(queue);

            Notes handler = note -> { };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("CBOR tags in a row");
                assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("nesting deeper than");
                assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("CBOR array of");
                assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("CBOR string of");
            });
        }
    }

    @Test
    void shouldReadOnAfterHostileDocuments() {
        List<Note> seen = new ArrayList<>();
        Notes handler = seen::add;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendHostileDocumentsThenANote(queue);

            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                for (int i = 0; i < 4; i++) {
                    assertThatThrownBy(reader::readOne).isInstanceOf(MessageDecodingException.class);
                }
                assertThat(reader.readOne()).isTrue();
            });
        }
        assertThat(seen).containsExactly(new Note("still read"));
    }
}
