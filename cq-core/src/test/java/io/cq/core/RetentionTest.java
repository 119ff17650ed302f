package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which cycles a queue keeps (retainCycles, retainFor, named tailers) and what its file listener is told. */
class RetentionTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

    private MappedQueueBuilder builder() {
        return MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024);
    }

    private static void appendOnePerCycle(MappedQueue queue, MutableClock clock, int cycles) {
        for (int i = 0; i < cycles; i++) {
            queue.acquireAppender().writeText("cycle " + i);
            clock.advance(Duration.ofSeconds(1));
        }
    }

    @Test
    void shouldKeepOnlyTheLastCycles() {
        try (MappedQueue queue = builder().retainCycles(3).build()) {
            appendOnePerCycle(queue, clock, 10);
            assertThat(queue.cycles()).hasSize(3);
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("cycle 7");
            assertThat(queue.firstIndex()).isEqualTo(queue.rollCycle().toIndex(queue.cycles().getFirst(), 0));
        }
    }

    @Test
    void shouldTellTheListenerOfEachCycleRetentionDeletes() {
        List<Long> deleted = new CopyOnWriteArrayList<>();
        StoreFileListener listener = new StoreFileListener() {
            @Override
            public void onDeleted(long cycle, Path file) {
                deleted.add(cycle);
            }
        };
        try (MappedQueue queue = builder().retainCycles(3).storeFileListener(listener).build()) {
            appendOnePerCycle(queue, clock, 10);
            assertThat(deleted).hasSize(7);
        }
    }

    @Test
    void shouldKeepWhatANamedTailerHasNotRead() {
        try (MappedQueue queue = builder().retainCycles(2).build()) {
            slowTailerReadsOneThenSixCyclesFollow(queue);
            assertThat(queue.cycles()).hasSize(7);
            assertThat(queue.createTailer("slow").readText()).isEqualTo("cycle 0");
        }
    }

    @Test
    void shouldDeleteWhatANamedTailerHasNotReadWhenToldNotToKeepIt() {
        try (MappedQueue queue = builder().retainCycles(2).retentionKeepsUnreadByNamedTailers(false).build()) {
            slowTailerReadsOneThenSixCyclesFollow(queue);
            assertThat(queue.cycles()).hasSize(2);
        }
    }

    /** A named tailer "slow" reads the first excerpt, then six cycles follow that it has not read. */
    private void slowTailerReadsOneThenSixCyclesFollow(MappedQueue queue) {
        queue.acquireAppender().writeText("first");
        try (ExcerptTailer slow = queue.createTailer("slow")) {
            assertThat(slow.readText()).isEqualTo("first");
        }
        clock.advance(Duration.ofSeconds(1));
        appendOnePerCycle(queue, clock, 6);
    }

    @Test
    void shouldKeepCyclesThatEndedWithinTheRetentionPeriod() {
        try (MappedQueue queue = builder().retainFor(Duration.ofSeconds(4)).build()) {
            appendOnePerCycle(queue, clock, 10);
            assertThat(queue.cycles()).hasSizeBetween(4, 5);
        }
    }

    @Test
    void shouldTellTheListenerWhenFilesAreAcquiredAndReleased() {
        List<String> events = new CopyOnWriteArrayList<>();
        StoreFileListener listener = new StoreFileListener() {
            @Override
            public void onAcquired(long cycle, Path file) {
                events.add("acquired " + file.getFileName());
            }

            @Override
            public void onReleased(long cycle, Path file) {
                events.add("released " + file.getFileName());
            }
        };
        try (MappedQueue queue = builder().storeFileListener(listener).build()) {
            appendOnePerCycle(queue, clock, 3);
        }
        assertThat(events).contains("acquired 20260301-100000.cq4", "released 20260301-100000.cq4",
                "acquired 20260301-100001.cq4");
        assertThat(events.stream().filter(e -> e.startsWith("acquired")).count())
                .isEqualTo(events.stream().filter(e -> e.startsWith("released")).count());
    }

    @Test
    void shouldRefuseANegativeNumberOfCyclesToRetain() {
        assertThatThrownBy(() -> MappedQueue.builder(dir).retainCycles(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("retainCycles=-1");
    }
}
