package io.cq.core;

import io.cq.core.support.AppendingProcess;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.MutableClock;
import io.cq.core.support.RepairingProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Repair, only on request: each damaged cycle is cut at its first unreadable record, the skipped excerpts are
 * reported, and the queue reads and appends normally again.
 */
class RepairTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /** Two hourly cycles of 2,000 excerpts, each with a page of zeros in its middle; returns their files. */
    private List<Path> twoCyclesWithAZeroedPage(MutableClock clock) throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 2_000; i++) {
                appender.writeText("first " + i + " " + "f".repeat(60));
            }
            clock.advance(Duration.ofHours(1));
            for (int i = 0; i < 2_000; i++) {
                appender.writeText("second " + i + " " + "s".repeat(60));
            }
        }
        List<Path> cycles;
        try (Stream<Path> files = Files.list(dir)) {
            cycles = files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList();
        }
        for (Path cycle : cycles) {
            zeroPageInTheMiddle(cycle);
        }
        return cycles;
    }

    @Test
    void shouldSkipTheDamagedRangesOfAFinishedAndTheNewestCycle() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        List<Path> cycles = twoCyclesWithAZeroedPage(clock);

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
            assertThatThrownBy(() -> readAll(queue)).isInstanceOf(CorruptQueueException.class);

            QueueRepair repair = queue.repair();

            assertThat(repair.skipped()).hasSize(2);
            assertThat(repair.skipped()).allSatisfy(range -> {
                assertThat(range.excerptsSkipped()).isPositive().isLessThan(2_000);
                assertThat(range.to()).isGreaterThan(range.from());
            });
            assertThat(repair.skipped()).extracting(QueueRepair.Skipped::file).containsExactlyElementsOf(cycles);
        }
    }

    @Test
    void shouldGoOnAppendingAndReadingAfterSkippingDamagedRanges() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        twoCyclesWithAZeroedPage(clock);

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
            QueueRepair repair = queue.repair();
            long skipped = repair.skipped().stream().mapToLong(QueueRepair.Skipped::excerptsSkipped).sum();

            queue.acquireAppender().writeText("after the repair");
            List<String> texts = readAll(queue);
            assertThat(texts).hasSize((int) (4_000 - skipped + 1));
            assertThat(texts.getLast()).isEqualTo("after the repair");
            assertThat(texts).anyMatch(text -> text.startsWith("second 0 "));
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
    }

    @Test
    void shouldFindNothingToRepairAfterSkippingDamagedRanges() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        twoCyclesWithAZeroedPage(clock);

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
            assertThat(queue.repair().repairedAnything()).as("the first repair").isTrue();
            assertThat(queue.repair().repairedAnything()).as("a second repair finds nothing").isFalse();
        }
    }

    /** Three hourly cycles of 100 excerpts each, "h&lt;hour&gt; e&lt;n&gt;"; the clock is left in the fourth hour. */
    private List<Path> threeCycles(MutableClock clock) throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int hour = 0; hour < 3; hour++) {
                for (int i = 0; i < 100; i++) {
                    appender.writeText("h" + hour + " e" + i);
                }
                clock.advance(Duration.ofHours(1));
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList();
        }
    }

    @Test
    void shouldSetTheNewestCycleBackToAFileThatExistsSoThatWritersOpenTheQueueAgain() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        List<Path> cycles = threeCycles(clock);
        Files.delete(cycles.getLast());

        assertThatThrownBy(() -> MappedQueue.builder(dir).clock(clock).build())
                .isInstanceOf(CorruptQueueException.class).hasMessageContaining("which does not exist");
        try (MappedQueue reader = MappedQueue.builder(dir).readOnly(true).build()) {
            QueueVerification verification = reader.verify();
            assertThat(verification.isIntact()).isFalse();
            assertThat(verification.findings()).anySatisfy(finding -> assertThat(finding.description())
                    .contains("no writer can open the queue until cq repair --skip-damaged"));
        }

        QueueRepair repair = MappedQueue.builder(dir).clock(clock).repair();

        assertThat(repair.cycleRangeReset()).isNotNull();
        assertThat(repair.cycleRangeReset().newest()).isEqualTo(repair.cycleRangeReset().storedNewest() - 1);
        assertThat(repair.skipped()).isEmpty();
        assertThat(repair.repairedAnything()).isTrue();
        try (MappedQueue queue = MappedQueue.builder(dir).clock(clock).build()) {
            queue.acquireAppender().writeText("after the repair");
            List<String> texts = readAll(queue);
            assertThat(texts).hasSize(201);
            assertThat(texts.get(199)).isEqualTo("h1 e99");
            assertThat(texts.getLast()).isEqualTo("after the repair");
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
        assertThat(MappedQueue.builder(dir).clock(clock).repair().repairedAnything()).isFalse();
    }

    /** Three cycles of 100 excerpts whose middle file is cut inside its header; returns that file. */
    private Path cutTheMiddleCyclesHeader(MutableClock clock) throws IOException {
        List<Path> cycles = threeCycles(clock);
        Path middle = cycles.get(1);
        try (FileChannel channel = FileChannel.open(middle, StandardOpenOption.WRITE)) {
            channel.truncate(100);
        }
        return middle;
    }

    @Test
    void shouldSetAsideACycleFileWhoseHeaderIsDamaged() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path middle = cutTheMiddleCyclesHeader(clock);

        QueueRepair repair = MappedQueue.builder(dir).clock(clock).repair();

        Path aside = middle.resolveSibling(middle.getFileName() + ".damaged");
        assertThat(repair.setAside()).singleElement().satisfies(file -> {
            assertThat(file.file()).isEqualTo(middle);
            assertThat(file.renamed()).isEqualTo(aside);
            assertThat(file.problem()).contains("shorter than its 256-byte header");
        });
        assertThat(repair.cycleRangeReset()).as("the newest file is still there").isNull();
        assertThat(middle).doesNotExist();
    }

    @Test
    void shouldKeepTheBytesOfACycleFileItSetsAside() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path middle = cutTheMiddleCyclesHeader(clock);

        MappedQueue.builder(dir).clock(clock).repair();

        assertThat(middle.resolveSibling(middle.getFileName() + ".damaged")).hasSize(100);
    }

    @Test
    void shouldReadTheCyclesAroundACycleFileItSetAside() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path middle = cutTheMiddleCyclesHeader(clock);

        MappedQueue.builder(dir).clock(clock).repair();

        Path aside = middle.resolveSibling(middle.getFileName() + ".damaged");
        try (MappedQueue queue = MappedQueue.builder(dir).clock(clock).build()) {
            List<String> texts = readAll(queue);
            assertThat(texts).hasSize(200);
            assertThat(texts.get(99)).isEqualTo("h0 e99");
            assertThat(texts.get(100)).isEqualTo("h2 e0");
            QueueVerification verification = queue.verify();
            assertThat(verification.isIntact()).as(verification.toString()).isTrue();
            assertThat(verification.findings()).anySatisfy(finding -> assertThat(finding.file()).isEqualTo(aside));
        }
    }

    /** Three cycles of 100 excerpts whose newest file has its header overwritten; returns that file. */
    private Path damageTheNewestCyclesHeader(MutableClock clock) throws IOException {
        Path newest = threeCycles(clock).getLast();
        try (FileChannel channel = FileChannel.open(newest, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), 0);
        }
        return newest;
    }

    @Test
    void shouldSetAsideADamagedNewestCycleFile() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Path newest = damageTheNewestCyclesHeader(clock);

        QueueRepair repair = MappedQueue.builder(dir).clock(clock).repair();

        assertThat(repair.setAside()).singleElement().extracting(QueueRepair.SetAside::file).isEqualTo(newest);
    }

    @Test
    void shouldResetTheCycleRangeWhenItSetsAsideTheNewestCycleFile() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        damageTheNewestCyclesHeader(clock);

        QueueRepair repair = MappedQueue.builder(dir).clock(clock).repair();

        assertThat(repair.cycleRangeReset()).isNotNull();
    }

    @Test
    void shouldAppendAfterTheCycleBeforeANewestFileItSetAside() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        damageTheNewestCyclesHeader(clock);

        MappedQueue.builder(dir).clock(clock).repair();

        try (MappedQueue queue = MappedQueue.builder(dir).clock(clock).build()) {
            queue.acquireAppender().writeText("after the repair");
            List<String> texts = readAll(queue);
            assertThat(texts).hasSize(201).endsWith("h1 e99", "after the repair");
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
    }

    /** The same repairs in a plain {@code java -jar}, with no native access: renames and stores, nothing native. */
    @Test
    void shouldRepairTheSameWayWithoutNativeAccess() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        List<Path> cycles = threeCycles(clock);
        Files.delete(cycles.get(2));
        try (FileChannel channel = FileChannel.open(cycles.get(1), StandardOpenOption.WRITE)) {
            channel.truncate(100);
        }

        List<String> lines = ChildJvm.runToEnd(false, RepairingProcess.class, dir.toString());

        assertThat(lines).contains("repaired skipped=0 setAside=1 reset=true")
                .noneMatch(line -> line.contains("WARNING: A restricted method"));
        assertThat(cycles.get(1).resolveSibling(cycles.get(1).getFileName() + ".damaged")).hasSize(100);
        try (MappedQueue queue = MappedQueue.builder(dir).clock(clock).build()) {
            queue.acquireAppender().writeText("after the repair");
            assertThat(readAll(queue)).hasSize(101).startsWith("h0 e0").endsWith("h0 e99", "after the repair");
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
    }

    @Test
    void shouldRefuseToRepairWhileAnotherProcessHasTheQueueOpenForWriting() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).build()) {
            queue.acquireAppender().writeText("before");
        }
        try (ChildJvm writer = ChildJvm.start(AppendingProcess.class, dir.toString(), "1", "10",
                dir.resolve("never").toString())) {
            String pid = writer.awaitLine("ready", 30, TimeUnit.SECONDS).substring("ready ".length());

            assertThatThrownBy(() -> MappedQueue.builder(dir).repair()).isInstanceOf(QueueException.class)
                    .hasMessageContaining("open for writing in 1 other process (pid " + pid + " on ")
                    .hasMessageContaining("stop every writer before repairing");

            writer.kill();
            assertThat(MappedQueue.builder(dir).repair().repairedAnything()).as("a killed writer is gone").isFalse();
        }
    }

    private static List<String> readAll(MappedQueue queue) {
        List<String> texts = new ArrayList<>();
        try (ExcerptTailer tailer = queue.createTailer()) {
            for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                texts.add(text);
            }
        }
        return texts;
    }

    private static void zeroPageInTheMiddle(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(PAGE), (channel.size() / 2) & -PAGE);
        }
    }
}
