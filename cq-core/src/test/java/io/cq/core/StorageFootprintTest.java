package io.cq.core;

import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.DiskUsage;
import io.cq.core.support.FinishedCyclesWriter;
import io.cq.core.support.MutableClock;
import io.cq.core.support.QueueCheckingProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What a queue costs on disk: allocated blocks as {@code du} counts them (docs/operations.md, "Disk usage"). */
class StorageFootprintTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"TEST_SECONDLY", "MINUTELY", "HOURLY", "DAILY", "LARGE_DAILY", "XLARGE_DAILY"})
    void shouldKeepTenFinishedCyclesOfAHundredSmallExcerptsUnderTwoMebibytes(RollCycle rollCycle) throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path queueDir = dir.resolve(rollCycle.name());
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(rollCycle).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            Assumptions.assumeTrue(rollCycle.indexCount() < 16384 || UnusedIndexSpace.appliesTo(queue.filesystem()),
                    "a file system where a hole reads without allocating (ext4, xfs), not "
                    + queue.filesystem().type());
            byte[] payload = new byte[40];
            for (int cycle = 0; cycle < 10; cycle++) {
                for (int i = 0; i < 100; i++) {
                    payload[0] = (byte) i;
                    appender.writeBytes(payload);
                }
                clock.advance(Duration.ofMillis(rollCycle.lengthMillis()));
            }
            appender.writeText("the eleventh cycle starts");
            // Finished cycles give back their unused index space on the background thread.
            BackgroundWork.drain();

            List<Path> finished = cycleFiles(queueDir).subList(0, 10);
            long finishedBytes = finished.stream().mapToLong(DiskUsage::allocatedBytes).sum();
            assertThat(finishedBytes).as("10 finished cycles of 100 x 40 B, while the queue is open")
                    .isLessThanOrEqualTo(2 * MIB);
        }
        assertThat(DiskUsage.allocatedBytes(queueDir)).as("the whole queue once closed, table store included")
                .isLessThanOrEqualTo(2 * MIB);
        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build()) {
            assertThat(queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1)).isEqualTo(1001);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"TEST_SECONDLY", "MINUTELY", "HOURLY", "DAILY", "LARGE_DAILY", "XLARGE_DAILY"})
    void shouldKeepTenFinishedCyclesOfAHundredSmallExcerptsUnderTwoMebibytesWithoutNativeAccess(RollCycle rollCycle)
            throws Exception {
        // A plain java -jar: the largest indexes (XLARGE_DAILY: two 128 KiB blocks a cycle) are given back too.
        Path queueDir = dir.resolve(rollCycle.name());
        assertThat(ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "10", "100", "40",
                rollCycle.name())).contains("written=1001");
        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build()) {
            Assumptions.assumeTrue(UnusedIndexSpace.appliesTo(queue.filesystem()), "a file system where a hole reads "
                    + "without allocating (ext4, xfs), not " + queue.filesystem().type());
        }
        List<Path> finished = cycleFiles(queueDir).subList(0, 10);
        assertThat(finished.stream().mapToLong(DiskUsage::allocatedBytes).sum())
                .as("10 finished cycles of 100 x 40 B").isLessThanOrEqualTo(2 * MIB);
        for (Path file : finished) {
            // The header's page, the first pages of the primary index and of the secondary block, the records' two:
            // without their index blocks of zeros (a 32 KiB one for MINUTELY would alone break this).
            assertThat(DiskUsage.allocatedBytes(file)).as("allocated bytes of %s", file.getFileName())
                    .isLessThanOrEqualTo(24 * 1024);
        }
        assertThat(DiskUsage.allocatedBytes(queueDir)).as("the whole queue, table store included")
                .isLessThanOrEqualTo(2 * MIB);
        assertThat(ChildJvm.runToEnd(false, QueueCheckingProcess.class, queueDir.toString(), "40", "past-the-end"))
                .contains("read=1001 wrong=none intact=true", "found past the end=false");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollCycle.class)
    void shouldKeepAQueueHoldingOneExcerptUnderOneMebibyteOpenOrClosed(RollCycle rollCycle) {
        Path queueDir = dir.resolve("one");
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(rollCycle).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("just one");
            assertThat(DiskUsage.allocatedBytes(queueDir)).as("while open").isLessThanOrEqualTo(MIB);
        }
        assertThat(DiskUsage.allocatedBytes(queueDir)).as("once closed").isLessThanOrEqualTo(MIB);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollCycle.class)
    void shouldAppendAfterTheExcerptOfAFileShrunkOnClose(RollCycle rollCycle) {
        Path queueDir = dir.resolve("one");
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(rollCycle).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("just one");
        }
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(rollCycle).build();
             ExcerptAppender appender = queue.createAppender()) {
            assertThat(queue.createTailer().readText()).isEqualTo("just one");
            appender.writeText("and a second, after the file was shrunk");
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("just one");
            assertThat(tailer.readText()).isEqualTo("and a second, after the file was shrunk");
        }
    }

    @Test
    void shouldKeepAQueueHoldingOneExcerptUnderOneMebibyteWithoutNativeAccess() throws Exception {
        // A plain java -jar reserves by writing zeros, by the same rule for its first reservation.
        Path queueDir = dir.resolve("one-plain");
        assertThat(ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "0", "0", "40"))
                .contains("written=1");
        assertThat(DiskUsage.allocatedBytes(queueDir)).isLessThanOrEqualTo(MIB);
    }

    @Test
    void shouldSpendAtMostFortyEightBytesOfDiskPerFortyByteExcerptInAFinishedCycle() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path queueDir = dir.resolve("million");
        int count = 1_000_000;
        try (MappedQueue queue = MappedQueue.builder(queueDir).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < count; i++) {
                try (WriteContext context = appender.writingDocument()) {
                    context.bytes().writeLong(i).writeLong(i).writeLong(i).writeLong(i).writeLong(i);
                }
            }
            clock.advance(Duration.ofDays(1));
            appender.writeText("next day");

            Path finished = cycleFiles(queueDir).getFirst();
            double perExcerpt = DiskUsage.allocatedBytes(finished) / (double) count;
            assertThat(perExcerpt).as("allocated bytes per 40-byte excerpt in the finished cycle")
                    .isLessThanOrEqualTo(48.0);
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    /** A writer and a reader queue over one directory, the reader's tailer at the second hour's excerpt. */
    private record CycleFinishedUnderAReader(Path queueDir, MappedQueue writer, MappedQueue reader,
                                             ExcerptTailer tailer, String readInTheFirstHour) {
    }

    private interface FinishedCycleCheck {
        void check(CycleFinishedUnderAReader finished) throws IOException;
    }

    /**
     * Writes an excerpt in the first hour, which a tailer of another queue over the same directory reads, then rolls
     * to the second hour (the first cycle finished and shrunk) and writes another; runs the check with both open.
     */
    private void withACycleFinishedUnderAReader(FinishedCycleCheck check) throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path queueDir = dir.resolve("shrunk");
        try (MappedQueue writer = MappedQueue.builder(queueDir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = writer.createAppender();
             MappedQueue reader = MappedQueue.builder(queueDir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
            ExcerptTailer tailer = reader.createTailer();
            appender.writeText("first hour");
            String readInTheFirstHour = tailer.readText();
            clock.advance(Duration.ofHours(1));
            appender.writeText("second hour");
            check.check(new CycleFinishedUnderAReader(queueDir, writer, reader, tailer, readInTheFirstHour));
        }
    }

    @Test
    void shouldShrinkAFinishedCycleToItsRecords() throws IOException {
        withACycleFinishedUnderAReader(finished -> {
            Path firstFile = cycleFiles(finished.queueDir()).getFirst();
            long size = Files.size(firstFile);
            assertThat(size).as("a finished cycle ends with its end-of-cycle mark").isLessThan(MIB);
        });
    }

    @Test
    void shouldKeepAShrunkCycleReadableFromAnotherQueue() throws IOException {
        withACycleFinishedUnderAReader(finished -> {
            assertThat(finished.readInTheFirstHour()).isEqualTo("first hour");
            assertThat(finished.tailer().readText()).isEqualTo("second hour");
            ExcerptTailer fresh = finished.reader().createTailer();
            assertThat(fresh.readText()).isEqualTo("first hour");
            assertThat(fresh.readText()).isEqualTo("second hour");
            assertThat(finished.writer().verify().findings()).isEmpty();
        });
    }

    @Test
    void shouldReportWrittenAndAllocatedBytesAsTheFileSystemCountsThem() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path queueDir = dir.resolve("usage");
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            byte[] payload = new byte[100];
            for (int i = 0; i < 5_000; i++) {
                appender.writeBytes(payload);
            }
            clock.advance(Duration.ofHours(1));
            appender.writeBytes(payload);

            BackgroundWork.drain(); // the finished cycle's unused index space given back, where it is
            QueueDiskUsage usage = queue.diskUsage();
            assertThat(usage.files()).isEqualTo(3);
            // 5,001 records of 104 bytes, two headers with their primary index and index block, the table store (513
            // KiB long, most of it the process records, sparse but for this process's)
            assertThat(usage.writtenBytes()).isBetween(5_001 * 104L, 5_001 * 104L + 2 * 70_000 + 530_000);
            assertThat(usage.allocatedKnown()).as("tests run with native access").isTrue();
            long filesAllocated;
            try (Stream<Path> files = Files.list(queueDir)) {
                filesAllocated = files.mapToLong(DiskUsage::allocatedBytes).sum();
            }
            assertThat(usage.allocatedBytes()).as("what du counts for the files").isEqualTo(filesAllocated);
            // Reserved ahead in the newest cycle only; the finished cycle's unused index pages (on ext4 and xfs, with
            // native access) given back: at most its primary index and one index block, 32 KiB each for HOURLY.
            long unusedIndex = UnusedIndexSpace.appliesTo(queue.filesystem()) ? 2 * 4096 * Long.BYTES : 0;
            assertThat(usage.allocatedBytes()).as("reserved ahead in the newest cycle only")
                    .isBetween(usage.writtenBytes() - unusedIndex - 4096, usage.writtenBytes() + MIB);
            assertThat(usage.fileBytes()).isGreaterThanOrEqualTo(usage.writtenBytes());
        }
    }

    private static List<Path> cycleFiles(Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList();
        }
    }
}
