package io.cq.core;

import io.cq.core.QueueVerification.Finding;
import io.cq.core.QueueVerification.Severity;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.support.QueueFileBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * verify judges every byte the format says something of (issue 39): the index entries and primary slots nobody has
 * used yet are zero, as is the space after the last record; used slots and entries point at their records; and the
 * table store's reserved ranges, free named-tailer slots and unclaimed process records are zero. Each finding names
 * the file and the position of the first wrong byte.
 */
class VerifyUnusedBytesTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T10:00:00Z"), ZoneOffset.UTC);
    private static final long PRIMARY_INDEX = 256;

    @TempDir
    Path dir;

    @Test
    void shouldReportBytesInTheUnusedEntriesOfTheFirstIndexBlock() throws IOException {
        writeDaily(1_110);
        Path file = QueueFileBytes.cycleFile(dir);
        long block = QueueFileBytes.readLong(file, PRIMARY_INDEX);
        // As issue 39 found it: 1,110 excerpts every 16 use entries 0 to 69 of the block's 8,192; 70,000 bytes into
        // the file is entry 525 or so.
        long at = 70_000;
        assertThat(at).isGreaterThan(IndexDescriptor.secondaryEntryPosition(block, 70))
                .isLessThan(IndexDescriptor.secondaryEntryPosition(block, 8_192));
        write(file, at, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f});

        assertSingleDamage(dailyQueueVerification(), file, at, "unused index entries");
    }

    @Test
    void shouldReportAnUnusedPrimarySlotThatIsNotZero() throws IOException {
        writeDaily(100);
        Path file = QueueFileBytes.cycleFile(dir);
        long slot = IndexDescriptor.primaryEntryOffset(5);
        writeLong(file, slot, 0x7fL << 8);

        // The first non-zero byte: the second of the slot.
        assertSingleDamage(dailyQueueVerification(), file, slot + 1, "unused primary index slots");
    }

    @Test
    void shouldReportAUsedPrimarySlotThatPointsElsewhereThanAtItsBlock() throws IOException {
        writeDaily(100);
        Path file = QueueFileBytes.cycleFile(dir);
        long block = QueueFileBytes.readLong(file, PRIMARY_INDEX);
        writeLong(file, PRIMARY_INDEX, block + 65_544);

        QueueVerification verification = dailyQueueVerification();

        assertThat(verification.isIntact()).isFalse();
        assertThat(verification.findings()).first().satisfies(finding -> {
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(PRIMARY_INDEX);
            assertThat(finding.description()).contains("primary index entry 0 holds " + (block + 65_544));
        });
    }

    @Test
    void shouldReportTheAlignmentSlackOfAnIndexBlockThatIsNotZero() throws IOException {
        writeDaily(100);
        Path file = QueueFileBytes.cycleFile(dir);
        long block = QueueFileBytes.readLong(file, PRIMARY_INDEX);
        long entries = IndexDescriptor.secondaryEntryPosition(block, 0);
        long slack = entries == block + 4 ? entries + 8192L * 8 : block + 4;
        write(file, slack, new byte[] {1});

        assertSingleDamage(dailyQueueVerification(), file, slack, "alignment slack");
    }

    @Test
    void shouldReportBytesInAReservedRangeOfTheCycleFileHeader() throws IOException {
        writeDaily(10);
        Path file = QueueFileBytes.cycleFile(dir);
        write(file, 200, new byte[] {9});

        assertSingleDamage(dailyQueueVerification(), file, 200, "reserved range of the cycle file's header");
    }

    @Test
    void shouldFindAQueueIntactWhoseNextIndexBlockWasWrittenForAnAppendRolledBack() {
        MappedQueueBuilder builder = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).indexSpacing(1)
                .clock(CLOCK);
        try (MappedQueue queue = builder.build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 128; i++) {
                appender.writeText("excerpt " + i);
            }
            try (WriteContext context = appender.writingDocument()) {
                context.bytes().writeInt(1);
                context.rollbackOnClose();
            }
            try (ExcerptTailer tailer = queue.createTailer("reader")) {
                tailer.readText();
            }
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
    }

    @Test
    void shouldReportBytesInAReservedRangeOfTheTableStoreHeader() throws IOException {
        writeDaily(10);
        Path store = dir.resolve(TableStoreDescriptor.FILE_NAME);
        write(store, 100, new byte[] {7});

        assertSingleDamage(dailyQueueVerification(), store, 100, "reserved range of the header");
    }

    /** A queue with one named tailer, "orders", in the table store's slot 0; returns the table store. */
    private Path queueWithANamedTailer() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).clock(CLOCK).build();
             ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer("orders")) {
            appender.writeText("one");
            tailer.readText();
        }
        return dir.resolve(TableStoreDescriptor.FILE_NAME);
    }

    @Test
    void shouldReportBytesInAFreeNamedTailerSlot() throws IOException {
        Path store = queueWithANamedTailer();
        long free = TableStoreDescriptor.slotOffset(3) + 40;
        write(store, free, new byte[] {1});

        QueueVerification verification = dailyQueueVerification();

        assertThat(verification.findings()).extracting(Finding::position).containsExactly(free);
        assertThat(verification.findings()).allSatisfy(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.file()).isEqualTo(store);
        });
    }

    @Test
    void shouldReportBytesAfterAUsedNamedTailerSlotsName() throws IOException {
        Path store = queueWithANamedTailer();
        long afterName = TableStoreDescriptor.slotOffset(0) + TableStoreDescriptor.SLOT_NAME + "orders".length() + 2;
        write(store, afterName, new byte[] {1});

        QueueVerification verification = dailyQueueVerification();

        assertThat(verification.findings()).extracting(Finding::position).containsExactly(afterName);
        assertThat(verification.findings()).allSatisfy(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.file()).isEqualTo(store);
        });
    }

    @Test
    void shouldReportBytesInTheRecordOfAProcessSlotNeverClaimed() throws IOException {
        writeDaily(10);
        Path store = dir.resolve(TableStoreDescriptor.FILE_NAME);
        long record = TableStoreDescriptor.processRecordOffset(TableStoreDescriptor.DEFAULT_SLOT_COUNT, 4000) + 8;
        write(store, record, new byte[] {1});

        assertSingleDamage(dailyQueueVerification(), store, record, "never claimed");
    }

    private static void assertSingleDamage(QueueVerification verification, Path file, long position, String what) {
        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(position);
            assertThat(finding.description()).contains(what);
        });
    }

    private void writeDaily(int excerpts) {
        try (MappedQueue queue = MappedQueue.builder(dir).clock(CLOCK).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < excerpts; i++) {
                appender.writeText("excerpt " + i + " of the cycle, with some text to make it longer");
            }
        }
    }

    private QueueVerification dailyQueueVerification() {
        try (MappedQueue queue = MappedQueue.builder(dir).clock(CLOCK).readOnly(true).build()) {
            return queue.verify();
        }
    }

    private static void writeLong(Path file, long position, long value) throws IOException {
        write(file, position, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value).array());
    }

    private static void write(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), position);
        }
    }
}
