package io.cq.core;

import io.cq.core.support.BlockEdgeWriter;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The word after the last record is the writer's free mark (docs/file-format.md, "Records"): a reader that finds it
 * knows it stands where the writer has reached without reading the hints the writer stores on every publish. These
 * tests read the files' bytes as the format describes them, and damage them the ways the mark must not hide:
 * a record length that leads straight to it, an older copy of a page the writer has since written past, an older
 * copy of the end of a finished cycle.
 */
class FreeMarkTest {
    private static final int PAGE = 4096;
    private static final int FREE = 0xC000_0000;
    private static final int LENGTH_MASK = 0x1FFF_FFFF;
    private static final long PAGE_HINT_OFFSET = 128;
    private static final long WRITE_POSITION_OFFSET = 64;
    private static final long SEED = 0x5EED_F4EEL;

    @TempDir
    Path dir;

    @Test
    void shouldLeaveAFreeMarkCountingTheExcerptsBeforeItAfterEveryPublish() throws IOException {
        Random random = new Random(SEED);
        // A small index spacing puts index blocks (metadata records) among the excerpts.
        try (MappedQueue queue = MappedQueue.builder(dir).indexSpacing(4).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 1; i <= 3_000; i++) {
                appender.writeBytes(payload(random, i));
                if (i <= 100 || i % 97 == 0) {
                    Records records = Records.of(onlyCycleFile());
                    assertThat(records.excerpts()).isEqualTo(i);
                    assertThat(records.endWord()).as("after excerpt %d", i).isEqualTo(FREE | i);
                    long pageHint = records.headerLong(PAGE_HINT_OFFSET);
                    assertThat(pageHint).as("page hint after excerpt %d", i).isLessThanOrEqualTo(records.end())
                            .matches(hint -> hint / PAGE == records.end() / PAGE, "in the page the records reach");
                    assertThat(records.headerLong(WRITE_POSITION_OFFSET)).isEqualTo(records.end());
                }
            }
            assertThat(Records.of(onlyCycleFile()).metadataRecords()).as("index blocks among the excerpts")
                    .isPositive();
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldFollowAWriterInAnotherProcessToItsFreeMark(boolean nativeAccess) throws Exception {
        // Small blocks: the writer reserves often. Without native access it reserves by writing zeros through its
        // channel, past the free mark a tailer here waits at, which must stay the free mark.
        long block = 64 * 1024;
        long seed = SEED + (nativeAccess ? 7 : 8);
        int count = 3_000;
        byte[][] written = BlockEdgeWriter.excerpts(seed, count);
        Path queueDir = dir.resolve("q");
        try (MappedQueue queue = BlockEdgeWriter.open(queueDir, block); ExcerptTailer tailer = queue.createTailer();
             ChildJvm writer = ChildJvm.start(nativeAccess, List.of(), BlockEdgeWriter.class, queueDir.toString(),
                     Long.toString(block), Long.toString(seed), Integer.toString(count), dir.resolve("sizes")
                             .toString())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int read = 0;
            while (read < count) {
                byte[] bytes = tailer.readBytes();
                if (bytes == null) {
                    assertThat(System.nanoTime()).as("read %d of %d excerpts in time", read, count)
                            .isLessThan(deadline);
                    Thread.yield();
                    continue;
                }
                assertThat(bytes).as("excerpt %d", read).isEqualTo(written[read]);
                read++;
            }
            writer.awaitLine("done", 60, TimeUnit.SECONDS);
            assertThat(tailer.readBytes()).isNull();
            assertThat(Records.of(onlyCycleFile(queueDir)).endWord()).isEqualTo(FREE | count);
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldKeepTheFreeMarkWhenAWriteIsRolledBack() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("kept");
            assertThat(tailer.readText()).isEqualTo("kept");
            assertThat(tailer.readText()).isNull();
            IllegalStateException failure = catchThrowableOfType(IllegalStateException.class,
                    () -> appender.writeDocument(bytes -> {
                        bytes.writeLong(42).writeUtf8("rolled back");
                        throw new IllegalStateException("the application's own error");
                    }));
            assertThat(failure).hasMessage("the application's own error");

            assertThat(Records.of(onlyCycleFile()).endWord()).isEqualTo(FREE | 1);
            assertThat(tailer.readText()).isNull();
            appender.writeText("after the rollback");
            assertThat(tailer.readText()).isEqualTo("after the rollback");
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldReadToTheEndOfRecordsThatEndInAZeroWordAsOlderWritersLeaveThem() throws IOException {
        Random random = new Random(SEED + 1);
        int written = writeExcerpts(random, 200 + random.nextInt(200));
        Path file = onlyCycleFile();
        writeInt(file, Records.of(file).end(), 0);

        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            assertThat(readAll(tailer)).isEqualTo(written);
            assertThat(readAll(tailer)).as("a quiet end, not damage").isZero();
            queue.acquireAppender().writeText("from a writer that leaves free marks");
            assertThat(tailer.readText()).isEqualTo("from a writer that leaves free marks");
            assertThat(Records.of(file).endWord()).isEqualTo(FREE | (written + 1));
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldFailLoudlyWhenADamagedLengthLeadsStraightToTheFreeMark() throws IOException {
        LengthDamage damaged = writeThenSwallowTheRest(new Random(SEED + 2));
        Path file = damaged.file();
        Records records = damaged.records();
        int written = damaged.written();

        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            CorruptQueueException damage = damageAfter(tailer, damaged.excerptsLeft(), written);
            assertThat(damage.getMessage()).contains(file.getFileName().toString())
                    .contains("after " + damaged.excerptsLeft() + " excerpts").contains("counts " + written);
            assertThat(damage.position()).isEqualTo(records.end());
            assertThat(queue.verify().findings()).anySatisfy(finding -> assertThat(finding.description())
                    .contains("free mark").contains("counts " + written));
        }
    }

    @Test
    void shouldFailLoudlyWhenADamagedLengthLeadsToTheRecordTheWriterIsWriting() throws IOException {
        Random random = new Random(SEED + 5);
        int written = 50 + random.nextInt(100);
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            append(appender, random, written);
            Path file = onlyCycleFile();
            Records records = Records.of(file);
            int damaged = random.nextInt(written - 1);
            long at = records.excerptStarts().get(damaged);
            try (WriteContext open = appender.writingDocument()) {
                // The writer's next record is in progress: its header keeps the free mark, counting every excerpt
                // before it, until it is published.
                open.bytes().writeLong(written);
                assertThat(Records.of(file).endWord()).isEqualTo(0xC000_0000 | written);
                swallowTheRest(file, at, records);

                try (ExcerptTailer tailer = queue.createTailer()) {
                    CorruptQueueException damage = damageAfter(tailer, damaged + 1, written);
                    assertThat(damage.getMessage()).contains("after " + (damaged + 1) + " excerpts")
                            .contains("counts " + written);
                }
                open.rollbackOnClose();
            }
        }
    }

    @Test
    void shouldRepairRecordsThatEndInAFreeMarkCountingOtherwise() throws IOException {
        LengthDamage damaged = writeThenSwallowTheRest(new Random(SEED + 6));
        Path file = damaged.file();
        Records records = damaged.records();
        // And an older copy of the header's page: its sequence hint agrees with the records as they now read.
        write(file, 72, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(damaged.excerptsLeft())
                .array());

        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThat(queue.verify().isIntact()).isFalse();
            QueueRepair repair = queue.repair();

            assertThat(repair.repairedAnything()).as("the free mark's count is damage to repair too").isTrue();
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
            Records repaired = Records.of(file);
            assertThat(repaired.end()).isEqualTo(records.end());
            assertThat(repaired.headerLong(PAGE_HINT_OFFSET)).as("page hint").isLessThanOrEqualTo(repaired.end());
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(readAll(tailer)).isEqualTo(damaged.excerptsLeft());
                queue.acquireAppender().writeText("after the repair");
                assertThat(tailer.readText()).isEqualTo("after the repair");
            }
        }
    }

    @Test
    void shouldFailLoudlyAtAnOlderCopyOfAPageTheWriterHasSinceWrittenPast() throws IOException {
        Random random = new Random(SEED + 3);
        byte[] olderCopy;
        long page;
        long olderEnd;
        int before;
        int written = 0;
        Path file;
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeBytes(payload(random, written++));
            file = onlyCycleFile();
            // Past the first secondary index block, which takes the records' first pages.
            olderEnd = Records.of(file).end() + 3 * PAGE + random.nextInt(8 * PAGE);
            while (Records.of(file).end() < olderEnd) {
                appender.writeBytes(payload(random, written++));
            }
            olderEnd = Records.of(file).end();
            page = olderEnd / PAGE * PAGE;
            olderCopy = read(file, page, PAGE);
            before = written;
            long laterEnd = page + 2 * PAGE + random.nextInt(4 * PAGE);
            while (Records.of(file).end() < laterEnd) {
                appender.writeBytes(payload(random, written++));
            }
        }
        // What an operating system that lost the page's later write-back would leave: the page as it was, its free
        // mark where records were written since.
        write(file, page, olderCopy);

        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThat(before).isGreaterThan(10);
            CorruptQueueException damage = damageAfter(tailer, before, written);
            assertThat(damage.getMessage()).contains("found free").contains(file.getFileName().toString());
            assertThat(damage.position()).isEqualTo(olderEnd);
        }
    }

    @Test
    void shouldFailLoudlyAtAnOlderCopyOfTheEndOfAFinishedCycle() throws IOException {
        Random random = new Random(SEED + 4);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
        int firstHour = 100 + random.nextInt(400);
        byte[] olderCopy;
        long page;
        Path firstFile;
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < firstHour; i++) {
                appender.writeBytes(payload(random, i));
            }
            firstFile = onlyCycleFile();
            long end = Records.of(firstFile).end();
            page = end / PAGE * PAGE;
            olderCopy = read(firstFile, page, (int) (end + 4 - page));
            clock.advance(Duration.ofHours(1));
            appender.writeText("second hour");
        }
        assertThat(Records.of(firstFile).endWord()).as("the end-of-cycle mark").isEqualTo(0x7FFF_FFFF);
        write(firstFile, page, olderCopy);

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).readOnly(true)
                .build(); ExcerptTailer tailer = queue.createTailer()) {
            CorruptQueueException damage = damageAfter(tailer, firstHour, firstHour + 1);
            assertThat(damage.getMessage()).contains("a newer cycle exists").contains("found free");
        }
    }

    /** Writes {@code count} seeded excerpts to a new queue, closed again; returns the count. */
    private int writeExcerpts(Random random, int count) {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            append(appender, random, count);
        }
        return count;
    }

    private static void append(ExcerptAppender appender, Random random, int count) {
        for (int i = 0; i < count; i++) {
            appender.writeBytes(payload(random, i));
        }
    }

    /** A queue whose excerpt {@code damaged} has a length that swallows every record after it, up to their end. */
    private record LengthDamage(Path file, Records records, int written, int damaged) {
        int excerptsLeft() {
            return damaged + 1;
        }
    }

    private LengthDamage writeThenSwallowTheRest(Random random) throws IOException {
        int written = writeExcerpts(random, 50 + random.nextInt(100));
        Path file = onlyCycleFile();
        Records records = Records.of(file);
        int damaged = random.nextInt(written - 1);
        swallowTheRest(file, records.excerptStarts().get(damaged), records);
        return new LengthDamage(file, records, written, damaged);
    }

    private static void swallowTheRest(Path file, long at, Records records) throws IOException {
        writeInt(file, at, 0x2000_0000 | (int) (records.end() - at - 4));
    }

    /** Reads until damage stops the tailer, which must come after exactly {@code before} excerpts; returns it. */
    private static CorruptQueueException damageAfter(ExcerptTailer tailer, int before, int written) {
        int read = 0;
        try {
            while (true) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        throw new AssertionError("reading stopped silently after " + read + " of " + written
                                + " excerpts; damage was expected after " + before);
                    }
                    read++;
                }
            }
        } catch (CorruptQueueException e) {
            assertThat(read).as("excerpts read before the damage was reported").isEqualTo(before);
            return e;
        }
    }

    private static byte[] payload(Random random, int i) {
        byte[] bytes = new byte[random.nextInt(300)];
        random.nextBytes(bytes);
        if (bytes.length >= 4) {
            ByteBuffer.wrap(bytes).putInt(i);
        }
        return bytes;
    }

    private static int readAll(ExcerptTailer tailer) {
        int read = 0;
        while (tailer.readBytes() != null) {
            read++;
        }
        return read;
    }

    private Path onlyCycleFile() throws IOException {
        return onlyCycleFile(dir);
    }

    private static Path onlyCycleFile(Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            List<Path> cycles = files.filter(path -> path.toString().endsWith(".cq4")).toList();
            assertThat(cycles).hasSize(1);
            return cycles.getFirst();
        }
    }

    private static byte[] read(Path file, long at, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(length);
            while (buffer.hasRemaining() && channel.read(buffer, at + buffer.position()) > 0) {
                // until the whole range is read
            }
            return buffer.array();
        }
    }

    private static void write(Path file, long at, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), at);
        }
    }

    private static void writeInt(Path file, long at, int value) throws IOException {
        write(file, at, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
    }

    /** A cycle file's records as docs/file-format.md lays them out, walked from its data start to their end. */
    private record Records(ByteBuffer content, List<Long> excerptStarts, int metadataRecords, long end) {
        static Records of(Path file) throws IOException {
            ByteBuffer content;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                // Mapped, not read whole: the walk touches the header words only, of a file reserved megabytes ahead.
                content = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()).order(ByteOrder.LITTLE_ENDIAN);
            }
            long position = content.getLong(56);
            List<Long> starts = new ArrayList<>();
            int metadata = 0;
            while (position + 4 <= content.capacity()) {
                int header = content.getInt((int) position);
                boolean published = (header & 0xA000_0000) == 0x2000_0000;
                if (!published || header == 0x7FFF_FFFF) {
                    break;
                }
                if ((header & 0x4000_0000) == 0) {
                    starts.add(position);
                } else {
                    metadata++;
                }
                position = (position + 4 + (header & LENGTH_MASK) + 3) & -4L;
            }
            return new Records(content, starts, metadata, position);
        }

        int excerpts() {
            return excerptStarts.size();
        }

        int endWord() {
            return content.getInt((int) end);
        }

        long headerLong(long offset) {
            return content.getLong((int) offset);
        }
    }
}
