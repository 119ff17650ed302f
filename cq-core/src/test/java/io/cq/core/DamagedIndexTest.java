package io.cq.core;

import io.cq.core.support.QueueFileBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damaged index entries are refused as damage, naming the file and the entry, by random access: never an
 * exception of the mapping classes, and never an excerpt that passes for missing.
 */
class DamagedIndexTest {
    /** Where the primary index starts in a cycle file (docs/file-format.md, "Cycle files"). */
    private static final long PRIMARY_INDEX = 256;

    @TempDir
    Path dir;

    @Test
    void shouldRefuseAPrimaryEntryThatIsNoPositionInTheFile() throws IOException {
        long firstIndex = writeQueue();
        for (long nonsense : new long[] {Long.MAX_VALUE - 7, 1L << 40, 6, -8}) {
            QueueFileBytes.writeLong(QueueFileBytes.cycleFile(dir), PRIMARY_INDEX, nonsense);
            try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
                 ExcerptTailer tailer = queue.createTailer()) {
                assertThatThrownBy(() -> tailer.moveToIndex(firstIndex + 500))
                        .isInstanceOf(CorruptQueueException.class)
                        .hasMessageContaining(QueueFileBytes.cycleFile(dir).getFileName().toString())
                        .hasMessageContaining("primary index entry 0 holds " + nonsense);
            }
        }
    }

    @Test
    void shouldRefuseASecondaryEntryThatDoesNotPointAtAnExcerpt() throws IOException {
        long firstIndex = writeQueue();
        Path file = QueueFileBytes.cycleFile(dir);
        long block = QueueFileBytes.readLong(file, PRIMARY_INDEX);
        long entries = (block + 4 + 7) & -8L;
        long entryOfSequence32 = entries + 2 * 8;
        long excerpt = QueueFileBytes.readLong(file, entryOfSequence32);
        for (long wrong : new long[] {excerpt + 2, 1L << 50, block}) {
            QueueFileBytes.writeLong(file, entryOfSequence32, wrong);
            try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
                 ExcerptTailer tailer = queue.createTailer()) {
                assertThatThrownBy(() -> tailer.moveToIndex(firstIndex + 40))
                        .isInstanceOf(CorruptQueueException.class)
                        .hasMessageContaining("index entry of excerpt 32 points at position " + wrong);
            }
        }
        QueueFileBytes.writeLong(file, entryOfSequence32, excerpt);
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThat(tailer.moveToIndex(firstIndex + 40)).isTrue();
            assertThat(tailer.readText()).isEqualTo("excerpt 40");
        }
    }

    private long writeQueue() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 1_000; i++) {
                appender.writeText("excerpt " + i);
            }
            return queue.firstIndex();
        }
    }

}
