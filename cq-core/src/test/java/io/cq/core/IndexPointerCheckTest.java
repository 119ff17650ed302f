package io.cq.core;

import io.cq.core.support.QueueFileBytes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Nothing is written or read through an index pointer that does not point where it should (issue 39): for a primary
 * slot and a secondary entry, each aimed at an excerpt, past the written records, into the file header or off the
 * 4-byte grid, the append is refused naming the file and the pointer's position without a published excerpt's bytes
 * changing, a seek through it is refused the same way, and a repair rebuilds the index so that appends go on and
 * every earlier excerpt reads back.
 */
class IndexPointerCheckTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T10:00:00Z"), ZoneOffset.UTC);
    private static final int SPACING = 4;
    /** TEST_SECONDLY's index count: 128 entries a block. */
    private static final int INDEX_COUNT = 128;
    private static final int EXCERPTS = 1_100;
    private static final long PRIMARY_INDEX = 256;
    private static final long WRITE_POSITION_HINT = 64;

    @TempDir
    Path dir;

    enum Target { AT_AN_EXCERPT, PAST_THE_WRITTEN_END, INTO_THE_HEADER, MISALIGNED }

    @ParameterizedTest
    @EnumSource(Target.class)
    void shouldRefuseToAppendOrSeekThroughAPrimarySlotThatPointsElsewhereThanAtAnIndexBlock(Target target)
            throws IOException {
        long first = writeQueue();
        Path file = QueueFileBytes.cycleFile(dir);
        int newestBlock = EXCERPTS / SPACING / INDEX_COUNT;
        long slotAt = PRIMARY_INDEX + newestBlock * 8L;
        long block = QueueFileBytes.readLong(file, slotAt);
        QueueFileBytes.writeLong(file, slotAt, wrongTarget(target, file, block, 1_030));

        assertRefusedNaming(file, slotAt, first + 1_090);
        assertRepairedAndAppendable(first);
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void shouldRefuseToAppendOrSeekThroughASecondaryEntryThatPointsElsewhereThanAtItsExcerpt(Target target)
            throws IOException {
        long first = writeQueue();
        Path file = QueueFileBytes.cycleFile(dir);
        int lastEntry = (EXCERPTS - 1) / SPACING;
        long block = QueueFileBytes.readLong(file, PRIMARY_INDEX + (lastEntry / INDEX_COUNT) * 8L);
        long entryAt = ((block + 4 + 7) & -8L) + (lastEntry % INDEX_COUNT) * 8L;
        long excerpt = QueueFileBytes.readLong(file, entryAt);
        QueueFileBytes.writeLong(file, entryAt, wrongTarget(target, file, excerpt, lastEntry * SPACING + 1));

        assertRefusedNaming(file, entryAt, first + EXCERPTS - 1);
        assertRepairedAndAppendable(first);
    }

    /** Where a damaged pointer points instead of at {@code right}. */
    private long wrongTarget(Target target, Path file, long right, long otherExcerpt) throws IOException {
        return switch (target) {
            case AT_AN_EXCERPT -> positionOfExcerpt(file, otherExcerpt);
            case PAST_THE_WRITTEN_END -> QueueFileBytes.readLong(file, WRITE_POSITION_HINT);
            case INTO_THE_HEADER -> PRIMARY_INDEX;
            case MISALIGNED -> right + 2;
        };
    }

    private void assertRefusedNaming(Path file, long pointerAt, long seekTo) throws IOException {
        Map<Long, byte[]> published = publishedRecords(file);
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            assertThatThrownBy(() -> appender.writeText("after the damage")).isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(file.toString() + " at position " + pointerAt + ":");
        }
        Map<Long, byte[]> after = publishedRecords(file);
        published.forEach((position, bytes) -> assertThat(after.get(position))
                .as("the excerpt at %d", position).isEqualTo(bytes));
        try (MappedQueue queue = builder().readOnly(true).build(); ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(() -> tailer.moveToIndex(seekTo))
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(file.toString() + " at position " + pointerAt + ":");
            // The end is found through the newest slot and entry, the damaged ones.
            assertThatThrownBy(tailer::toEnd)
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(file.toString() + " at position " + pointerAt + ":");
            assertThatThrownBy(queue::lastIndex)
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(file.toString() + " at position " + pointerAt + ":");
            tailer.toStart();
            // Read on from the start, the records are all there.
            for (int i = 0; i < EXCERPTS; i++) {
                assertThat(tailer.readText()).isEqualTo("excerpt " + i);
            }
        }
    }

    private void assertRepairedAndAppendable(long first) {
        try (MappedQueue queue = builder().build()) {
            QueueRepair repair = queue.repair();
            assertThat(repair.repairedAnything()).isTrue();
            assertThat(repair.skipped()).isEmpty();
            try (ExcerptAppender appender = queue.createAppender()) {
                for (int i = 0; i < 3 * SPACING; i++) {
                    appender.writeText("after the repair " + i);
                }
            }
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int i = 0; i < EXCERPTS; i++) {
                    assertThat(tailer.readText()).isEqualTo("excerpt " + i);
                }
                assertThat(tailer.readText()).isEqualTo("after the repair 0");
                for (long index : new long[] {first + 1, first + 517, first + 1_030, first + EXCERPTS - 1}) {
                    assertThat(tailer.moveToIndex(index)).isTrue();
                    assertThat(tailer.readText()).isEqualTo("excerpt " + (index - first));
                }
            }
        }
    }

    private MappedQueueBuilder builder() {
        return MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).indexSpacing(SPACING).clock(CLOCK);
    }

    private long writeQueue() {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < EXCERPTS; i++) {
                appender.writeText("excerpt " + i);
            }
            return queue.firstIndex();
        }
    }

    /** The bytes of every published excerpt (header word and payload), by position. */
    private static Map<Long, byte[]> publishedRecords(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        Map<Long, byte[]> records = new LinkedHashMap<>();
        int position = (int) buffer.getLong(56);
        while (position + 4 <= bytes.length) {
            int header = buffer.getInt(position);
            if ((header & 0xE000_0000) == 0x2000_0000) {
                int length = header & 0x1FFF_FFFF;
                records.put((long) position, Arrays.copyOfRange(bytes, position, position + 4 + length));
            } else if ((header & 0xE000_0000) != 0x6000_0000 || header == 0x7FFF_FFFF) {
                break;
            }
            position = (position + 4 + (header & 0x1FFF_FFFF) + 3) & -4;
        }
        return records;
    }

    private static long positionOfExcerpt(Path file, long sequence) throws IOException {
        return publishedRecords(file).keySet().stream().skip(sequence).findFirst().orElseThrow();
    }

}
