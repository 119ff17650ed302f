package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the system clock, appenders read it only near a cycle's end (or every few hundred appends); away from it a
 * background check vouches for the cycle. Every excerpt must still land in the cycle of the time of its append.
 */
class SystemClockRollTest {
    @TempDir
    Path dir;

    @Test
    void shouldPutEveryExcerptInTheCycleOfTheTimeItWasAppendedAcrossSeveralCycleEnds() {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).build();
             ExcerptAppender appender = queue.createAppender()) {
            CycleCalendar calendar = CycleCalendar.of(RollCycle.TEST_SECONDLY);
            Set<Long> cycles = new HashSet<>();
            long appended = 0;
            long until = System.currentTimeMillis() + 3_600;
            while (System.currentTimeMillis() < until) {
                // Bursts at full speed (an appender counting down to its next clock read), then a pause.
                for (int i = 0; i < 400; i++) {
                    long before = System.currentTimeMillis();
                    long index = appender.writeText("t" + before);
                    long after = System.currentTimeMillis();
                    long cycle = RollCycle.TEST_SECONDLY.toCycle(index);
                    assertThat(cycle).as("excerpt %d, appended between %d and %d ms", appended, before, after)
                            .isBetween(calendar.cycleAt(before), calendar.cycleAt(after));
                    cycles.add(cycle);
                    appended++;
                }
                LockSupport.parkNanos(1_000_000);
            }
            assertThat(cycles).hasSizeGreaterThanOrEqualTo(3);
            assertThat(queue.lastIndex()).isNotNegative();
        }
    }
}
