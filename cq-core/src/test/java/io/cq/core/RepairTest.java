package io.cq.core;

import io.cq.core.support.MutableClock;
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

    @Test
    void shouldSkipTheDamagedRangesOfAFinishedAndTheNewestCycleAndGoOn() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
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

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
            assertThatThrownBy(() -> readAll(queue)).isInstanceOf(CorruptQueueException.class);

            QueueRepair repair = queue.repair();

            assertThat(repair.skipped()).hasSize(2);
            assertThat(repair.skipped()).allSatisfy(range -> {
                assertThat(range.excerptsSkipped()).isPositive().isLessThan(2_000);
                assertThat(range.to()).isGreaterThan(range.from());
            });
            assertThat(repair.skipped()).extracting(QueueRepair.Skipped::file).containsExactlyElementsOf(cycles);
            long skipped = repair.skipped().stream().mapToLong(QueueRepair.Skipped::excerptsSkipped).sum();

            queue.acquireAppender().writeText("after the repair");
            List<String> texts = readAll(queue);
            assertThat(texts).hasSize((int) (4_000 - skipped + 1));
            assertThat(texts.getLast()).isEqualTo("after the repair");
            assertThat(texts).anyMatch(text -> text.startsWith("second 0 "));
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
            assertThat(queue.repair().repairedAnything()).as("a second repair finds nothing").isFalse();
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
