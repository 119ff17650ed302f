package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RollingTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

    private MappedQueue open(RollCycle rollCycle) {
        return MappedQueue.builder(dir).rollCycle(rollCycle).clock(clock)
                .blockSize(rollCycle == RollCycle.TEST_SECONDLY ? 64 * 1024 : 1 << 20).build();
    }

    private long cycleFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".cq4")).count();
        }
    }

    @Test
    void shouldStartANewFileEachCycle() throws IOException {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender appender = queue.acquireAppender();
            long a = appender.writeText("a");
            appender.writeText("b");
            clock.advance(Duration.ofSeconds(1));
            long c = appender.writeText("c");
            assertThat(queue.rollCycle().toCycle(c)).isEqualTo(queue.rollCycle().toCycle(a) + 1);
            assertThat(queue.rollCycle().toSequenceNumber(c)).isZero();
            assertThat(cycleFiles()).isEqualTo(2);
            assertThat(queue.dump()).contains("end of cycle");
        }
    }

    @Test
    void shouldLetATailerCrossIntoTheNextCycle() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender appender = queue.acquireAppender();
            ExcerptTailer tailer = queue.createTailer();
            appender.writeText("a");
            appender.writeText("b");
            assertThat(tailer.readText()).isEqualTo("a");
            clock.advance(Duration.ofSeconds(1));
            appender.writeText("c");

            assertThat(tailer.readText()).isEqualTo("b");
            assertThat(tailer.readText()).isEqualTo("c");
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldSkipCyclesThatHaveNoFile() throws IOException {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender appender = queue.acquireAppender();
            appender.writeText("monday");
            clock.advance(Duration.ofSeconds(5));
            appender.writeText("saturday");
            clock.advance(Duration.ofHours(1));
            appender.writeText("next hour");

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("monday");
            assertThat(tailer.readText()).isEqualTo("saturday");
            assertThat(tailer.readText()).isEqualTo("next hour");
            assertThat(tailer.readText()).isNull();
            assertThat(cycleFiles()).isEqualTo(3);
            assertThat(queue.cycles()).hasSize(3);
        }
    }

    @Test
    void shouldFollowAWriterIntoANewCycleWhileTailing() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender appender = queue.acquireAppender();
            ExcerptTailer tailer = queue.createTailer();
            for (int second = 0; second < 5; second++) {
                appender.writeText("tick " + second);
                assertThat(tailer.readText()).isEqualTo("tick " + second);
                assertThat(tailer.readText()).isNull();
                clock.advance(Duration.ofSeconds(1));
            }
        }
    }

    @Test
    void shouldMarkTheOlderFileFinishedWhenAWriterStartsInALaterCycle() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            queue.acquireAppender().writeText("before restart");
        }
        clock.advance(Duration.ofMinutes(3));
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            queue.acquireAppender().writeText("after restart");
            String dump = queue.dump();
            assertThat(dump.indexOf("end of cycle"))
                    .isBetween(dump.indexOf("before restart"), dump.indexOf("after restart"));
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("before restart");
            assertThat(tailer.readText()).isEqualTo("after restart");
        }
    }

    @Test
    void shouldKeepThePersistedRollCycleWhenOpenedWithAnother() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            queue.acquireAppender().writeText("x");
        }
        try (MappedQueue queue = open(RollCycle.HOURLY)) {
            assertThat(queue.rollCycle()).isEqualTo(RollCycle.TEST_SECONDLY);
            assertThat(queue.createTailer().readText()).isEqualTo("x");
        }
    }

    @Test
    void shouldNeverWriteIntoAnOlderCycleWhenTheClockGoesBack() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender appender = queue.acquireAppender();
            long first = appender.writeText("first");
            clock.advance(Duration.ofSeconds(-10));
            long second = appender.writeText("second");
            assertThat(second).isEqualTo(first + 1);
        }
    }

    @Test
    void shouldRollForOneAppenderWhenAnotherAlreadyMovedOn() throws Exception {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            ExcerptAppender main = queue.acquireAppender();
            main.writeText("main 1");
            clock.advance(Duration.ofSeconds(1));
            Thread other = Thread.ofPlatform().start(() -> queue.acquireAppender().writeText("other"));
            other.join();
            long mainIndex = main.writeText("main 2");
            assertThat(queue.rollCycle().toSequenceNumber(mainIndex)).isEqualTo(1);
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("main 1");
            assertThat(tailer.readText()).isEqualTo("other");
            assertThat(tailer.readText()).isEqualTo("main 2");
        }
    }

    @Test
    void shouldRefuseToRollIntoADirectoryReplacedWhileTheQueueWasOpen() throws Exception {
        Path queueDir = dir.resolve("replaced");
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("before");
            try (Stream<Path> files = Files.walk(queueDir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
            try (MappedQueue other = MappedQueue.builder(queueDir).rollCycle(RollCycle.HOURLY).clock(clock).build()) {
                other.createAppender().close();
            }
            clock.set(Instant.parse("2026-11-25T11:00:00Z"));
            assertThatThrownBy(() -> appender.writeText("after"))
                    .isInstanceOf(QueueException.class).hasMessageContaining("was deleted");
        }
        try (MappedQueue other = MappedQueue.builder(queueDir).readOnly(true).build()) {
            assertThat(other.lastIndex()).as("nothing of the old queue in the new directory").isEqualTo(-1);
        }
    }

    /** Appends "a" and "b" one cycle apart, closes the queue, and appends "c" a cycle later in the queue it reopens. */
    private MappedQueue appendOneExcerptPerCycleAcrossAReopen() {
        try (MappedQueue queue = open(RollCycle.TEST_SECONDLY)) {
            queue.acquireAppender().writeText("a");
            clock.advance(Duration.ofSeconds(1));
            queue.acquireAppender().writeText("b");
        }
        clock.advance(Duration.ofSeconds(1));
        MappedQueue queue = open(RollCycle.TEST_SECONDLY);
        queue.acquireAppender().writeText("c");
        return queue;
    }

    @Test
    void shouldReadEveryOlderCycleForwardAfterRollingAgainInAReopenedQueue() {
        try (MappedQueue queue = appendOneExcerptPerCycleAcrossAReopen()) {
            ExcerptTailer forward = queue.createTailer();
            assertThat(forward.readText()).isEqualTo("a");
            assertThat(forward.readText()).isEqualTo("b");
            assertThat(forward.readText()).isEqualTo("c");
        }
    }

    @Test
    void shouldReadEveryOlderCycleBackwardAfterRollingAgainInAReopenedQueue() {
        try (MappedQueue queue = appendOneExcerptPerCycleAcrossAReopen()) {
            ExcerptTailer backward = queue.createTailer().direction(TailerDirection.BACKWARD).toEnd();
            assertThat(backward.readText()).isEqualTo("c");
            assertThat(backward.readText()).isEqualTo("b");
            assertThat(backward.readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldCountTheExcerptsOfEveryOlderCycleAfterRollingAgainInAReopenedQueue() {
        try (MappedQueue queue = appendOneExcerptPerCycleAcrossAReopen()) {
            assertThat(queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1)).isEqualTo(3);
        }
    }

    @Test
    void shouldNameTheLastExcerptOfTheCycleBeforeAsNextWhenReadingBackwardPastACyclesStart() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.acquireAppender()) {
            for (int hour = 0; hour < 2; hour++) {
                for (int i = 0; i < 3; i++) {
                    appender.writeText("h" + hour + " e" + i);
                }
                clock.advance(Duration.ofHours(1));
            }
            long lastOfFirstHour;
            try (ExcerptTailer tailer = queue.createTailer("back")) {
                tailer.direction(TailerDirection.BACKWARD).toEnd();
                List<String> read = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    read.add(tailer.readText());
                }
                assertThat(read).containsExactly("h1 e2", "h1 e1", "h1 e0");
                lastOfFirstHour = tailer.index();
                assertThat(queue.rollCycle().toSequenceNumber(lastOfFirstHour)).isEqualTo(2);
                assertThat(tailer.moveToIndex(lastOfFirstHour)).as("index() names an excerpt that exists").isTrue();
            }
            try (ExcerptTailer resumed = queue.createTailer("back")) {
                resumed.direction(TailerDirection.BACKWARD);
                assertThat(resumed.readText()).as("resumes with the next one backward, not the one read last")
                        .isEqualTo("h0 e2");
            }
        }
    }

    @Test
    void shouldKeepOnlyTheCurrentCycleMappedWhileATailerCrossesManyCycles() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 300; i++) {
                appender.writeText("cycle " + i);
                clock.advance(Duration.ofSeconds(1));
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < 300; i++) {
                assertThat(tailer.readText()).isEqualTo("cycle " + i);
            }
            assertThat(openMappings()).as("mapped cycle files").isLessThanOrEqualTo(3);
        }
    }

    /** Cycle files this process has mapped now, from /proc/self/maps. */
    private static long openMappings() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(line -> line.endsWith(".cq4")).map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .distinct().count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
