package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RandomAccessTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

    /** Three cycles of 1000, 0 (skipped second) and 2500 excerpts whose text is their ordinal. */
    private List<Long> writeThreeCycles(MappedQueue queue) {
        List<Long> indexes = new ArrayList<>();
        ExcerptAppender appender = queue.acquireAppender();
        int ordinal = 0;
        for (int cycle = 0; cycle < 3; cycle++) {
            int count = cycle == 0 ? 1000 : cycle == 1 ? 1 : 2500;
            for (int i = 0; i < count; i++) {
                indexes.add(appender.writeText(Integer.toString(ordinal++)));
            }
            clock.advance(Duration.ofSeconds(cycle == 0 ? 2 : 1));
        }
        return indexes;
    }

    private MappedQueue open(int indexSpacing) {
        return MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock).blockSize(256 * 1024)
                .indexSpacing(indexSpacing).build();
    }

    @Test
    void shouldMoveToAnyIndexAcrossCycles() {
        try (MappedQueue queue = open(16)) {
            List<Long> indexes = writeThreeCycles(queue);
            ExcerptTailer tailer = queue.createTailer();
            Random random = new Random(3);
            for (int i = 0; i < 2_000; i++) {
                int ordinal = random.nextInt(indexes.size());
                assertThat(tailer.moveToIndex(indexes.get(ordinal))).isTrue();
                assertThat(tailer.index()).isEqualTo(indexes.get(ordinal));
                assertThat(tailer.readText()).isEqualTo(Integer.toString(ordinal));
            }
        }
    }

    /** Tries indexes past the end, past a cycle's end, in a cycle with no file and below zero. */
    private static List<Boolean> moveToIndexesThatHoldNoExcerpt(MappedQueue queue, ExcerptTailer tailer,
                                                                List<Long> indexes) {
        RollCycle roll = queue.rollCycle();
        return List.of(tailer.moveToIndex(indexes.getLast() + 1),
                tailer.moveToIndex(roll.toIndex(roll.toCycle(indexes.getFirst()), 1000)),
                tailer.moveToIndex(roll.toIndex(roll.toCycle(indexes.getFirst()) + 1, 0)),
                tailer.moveToIndex(-5));
    }

    @Test
    void shouldRefuseIndexesThatHoldNoExcerpt() {
        try (MappedQueue queue = open(16)) {
            List<Long> indexes = writeThreeCycles(queue);
            ExcerptTailer tailer = queue.createTailer();
            List<Boolean> moved = moveToIndexesThatHoldNoExcerpt(queue, tailer, indexes);
            assertThat(moved.get(0)).as("past the end").isFalse();
            assertThat(moved.get(1)).as("past a cycle's end").isFalse();
            assertThat(moved.get(2)).as("in a cycle with no file").isFalse();
            assertThat(moved.get(3)).as("below zero").isFalse();
        }
    }

    @Test
    void shouldStayWhereItWasWhenRefusingAnIndexThatHoldsNoExcerpt() {
        try (MappedQueue queue = open(16)) {
            List<Long> indexes = writeThreeCycles(queue);
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.moveToIndex(indexes.get(10))).isTrue();
            moveToIndexesThatHoldNoExcerpt(queue, tailer, indexes);
            assertThat(tailer.readText()).isEqualTo("10");
        }
    }

    @Test
    void shouldReadBackwardAcrossCycles() {
        try (MappedQueue queue = open(8)) {
            List<Long> indexes = writeThreeCycles(queue);
            ExcerptTailer tailer = queue.createTailer().direction(TailerDirection.BACKWARD).toEnd();
            for (int ordinal = indexes.size() - 1; ordinal >= 0; ordinal--) {
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.isPresent()).as("ordinal %d", ordinal).isTrue();
                    assertThat(dc.index()).isEqualTo(indexes.get(ordinal));
                }
            }
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldSwitchDirectionWithoutLosingItsPlace() {
        try (MappedQueue queue = open(16)) {
            List<Long> indexes = writeThreeCycles(queue);
            ExcerptTailer tailer = queue.createTailer();
            tailer.moveToIndex(indexes.get(500));
            assertThat(tailer.readText()).isEqualTo("500");
            tailer.direction(TailerDirection.BACKWARD);
            assertThat(tailer.readText()).isEqualTo("501");
            assertThat(tailer.readText()).isEqualTo("500");
            assertThat(tailer.readText()).isEqualTo("499");
            tailer.direction(TailerDirection.FORWARD);
            assertThat(tailer.readText()).isEqualTo("498");
            assertThat(tailer.readText()).isEqualTo("499");
        }
    }

    @Test
    void shouldCountExcerptsAcrossCycles() {
        try (MappedQueue queue = open(16)) {
            List<Long> indexes = writeThreeCycles(queue);
            assertThat(queue.firstIndex()).isEqualTo(indexes.getFirst());
            assertThat(queue.lastIndex()).isEqualTo(indexes.getLast());
            assertThat(queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1)).isEqualTo(indexes.size());
            assertThat(queue.countExcerpts(indexes.get(990), indexes.get(1010))).isEqualTo(20);
            assertThat(queue.countExcerpts(indexes.get(5), indexes.get(5))).isZero();
            assertThat(queue.countExcerpts(0, Long.MAX_VALUE)).isEqualTo(indexes.size());

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.lag()).isEqualTo(indexes.size());
            tailer.moveToIndex(indexes.get(1001));
            assertThat(tailer.lag()).isEqualTo(indexes.size() - 1001);
            tailer.toEnd();
            assertThat(tailer.lag()).isZero();
        }
    }

    @Test
    void shouldFindExcerptsBeyondWhatTheIndexCanHold() {
        // TEST_SECONDLY indexes 128 x 128 entries: with spacing 1 the index is full after 16384 excerpts.
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(1 << 20).indexSpacing(1).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            List<Long> indexes = new ArrayList<>();
            for (int i = 0; i < 17_000; i++) {
                indexes.add(appender.writeText("n" + i));
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int ordinal : new int[] {0, 16_383, 16_384, 16_999, 100}) {
                assertThat(tailer.moveToIndex(indexes.get(ordinal))).isTrue();
                assertThat(tailer.readText()).isEqualTo("n" + ordinal);
            }
            assertThat(queue.lastIndex()).isEqualTo(indexes.getLast());
            assertThat(queue.countExcerpts(indexes.getFirst(), indexes.getLast() + 1)).isEqualTo(17_000);
        }
    }

    @Test
    void shouldKeepTheLastIndexExactWhileAppending() {
        try (MappedQueue queue = open(16)) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 100; i++) {
                long index = appender.writeText("x");
                assertThat(queue.lastIndex()).isEqualTo(index);
            }
        }
    }
}
