package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A page of zeros where excerpts were written (a lost page, a bad sector) is damage, not the end of the queue:
 * a tailer reads everything before it and then fails loudly, naming the file and the position, instead of
 * stopping as if nothing more had been written while appends go on after it.
 */
class DamagedPageTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void shouldFailLoudlyAtAZeroedPageInTheCycleBeingWritten() throws IOException {
        int written = 3_000;
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < written; i++) {
                appender.writeText(String.format("excerpt %05d %s", i, "x".repeat(80)));
            }
        }
        Path cycleFile = onlyCycleFile();
        long zeroedAt = zeroPageInTheMiddle(cycleFile);

        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            queue.acquireAppender().writeText("appended after the damage");
            int read = 0;
            CorruptQueueException damage = null;
            while (damage == null) {
                try {
                    String text = tailer.readText();
                    assertThat(text).as("a silent end before the damage was reported").isNotNull();
                    assertThat(text).startsWith(String.format("excerpt %05d", read));
                    read++;
                } catch (CorruptQueueException e) {
                    damage = e;
                }
            }
            assertThat(read).isPositive().isLessThan(written);
            assertThat(damage.getMessage()).contains(cycleFile.getFileName().toString()).contains("found empty");
            assertThat(damage.position()).isBetween(zeroedAt, zeroedAt + PAGE);
        }
    }

    @Test
    void shouldFailLoudlyWithinSixtyFourPollsWhenTheFreeHeaderAReaderWaitsAtTurnsOutDamaged() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer waiting = queue.createTailer()) {
            appender.writeText("first");
            assertThat(waiting.readText()).isEqualTo("first");
            // The first look at the free header after it checks it for damage and finds none: nothing yet.
            assertThat(waiting.readText()).isNull();
            appender.writeText("second, whose header is then lost");
            appender.writeText("third");
            zeroHeaderBefore(onlyCycleFile(), "second, whose header is then lost");

            // A tailer that looks there for the first time reports it at once.
            try (ExcerptTailer fresh = queue.createTailer()) {
                assertThat(fresh.readText()).isEqualTo("first");
                assertThatThrownBy(fresh::readText).isInstanceOf(CorruptQueueException.class)
                        .hasMessageContaining("found empty");
            }
            // The one that kept polling checks again within 64 looks, and never reads past the damage meanwhile.
            CorruptQueueException damage = null;
            int looks = 0;
            while (damage == null && looks < 64) {
                looks++;
                try {
                    assertThat(waiting.readText()).as("look %d", looks).isNull();
                } catch (CorruptQueueException e) {
                    damage = e;
                }
            }
            assertThat(damage).as("damage reported within 64 looks").isNotNull();
            assertThat(damage.getMessage()).contains("found empty");
        }
    }

    @Test
    void shouldFailLoudlyWhenAFinishedCycleEndsInZerosInsteadOfItsEndMark() throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 2_000; i++) {
                appender.writeText("first hour " + i + " " + "y".repeat(60));
            }
            clock.advance(Duration.ofHours(1));
            appender.writeText("second hour");
        }
        Path firstHour;
        try (Stream<Path> files = Files.list(dir)) {
            firstHour = files.filter(path -> path.toString().endsWith(".cq4")).sorted().findFirst().orElseThrow();
        }
        long zeroedAt = zeroPageInTheMiddle(firstHour);

        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).readOnly(true)
                .build(); ExcerptTailer tailer = queue.createTailer()) {
            CorruptQueueException damage = catchThrowableOfType(CorruptQueueException.class, () -> {
                while (tailer.readText() != null) {
                    // read up to the damage
                }
            });
            assertThat(damage).as("reading stopped silently before the second hour").isNotNull();
            assertThat(damage.position()).isBetween(zeroedAt, zeroedAt + PAGE);
        }
    }

    private Path onlyCycleFile() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> cycles = files.filter(path -> path.toString().endsWith(".cq4")).toList();
            assertThat(cycles).hasSize(1);
            return cycles.getFirst();
        }
    }

    /** Zeros the 4-byte record header just before the first occurrence of {@code text} in the file. */
    private static void zeroHeaderBefore(Path file, String text) throws IOException {
        byte[] content = Files.readAllBytes(file);
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        for (int at = 4; at + needle.length <= content.length; at++) {
            if (Arrays.equals(content, at, at + needle.length, needle, 0, needle.length)) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.write(ByteBuffer.allocate(4), at - 4);
                }
                return;
            }
        }
        throw new AssertionError(text + " not found in " + file);
    }

    /** Zeros the page at the middle of the file's length; returns where it starts. */
    private static long zeroPageInTheMiddle(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long at = (channel.size() / 2) & -PAGE;
            channel.write(ByteBuffer.allocate(PAGE), at);
            return at;
        }
    }
}
