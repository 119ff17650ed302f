package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RollCycleTest {
    private static final long NOW = Instant.parse("2026-11-22T13:47:31.250Z").toEpochMilli();

    @ParameterizedTest
    @EnumSource(RollCycle.class)
    void shouldNameEachCycleFileSoTheNameParsesBackToTheSameCycle(RollCycle rollCycle) {
        long cycle = rollCycle.cycleAt(NOW);
        String name = rollCycle.fileName(cycle);
        assertThat(rollCycle.parseCycle(name)).contains(cycle);
        assertThat(rollCycle.parseCycle(rollCycle.fileName(cycle + 1))).contains(cycle + 1);
        assertThat(rollCycle.fileName(cycle + 1)).isGreaterThan(name);
        assertThat(rollCycle.parseCycle("metadata")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(RollCycle.class)
    void shouldSplitAnIndexIntoCycleAndSequence(RollCycle rollCycle) {
        long cycle = rollCycle.cycleAt(NOW);
        long index = rollCycle.toIndex(cycle, 12345);
        assertThat(rollCycle.toCycle(index)).isEqualTo(cycle);
        assertThat(rollCycle.toSequenceNumber(index)).isEqualTo(12345);
        assertThat(index).isPositive();
    }

    @ParameterizedTest
    @EnumSource(RollCycle.class)
    void shouldFollowTheLastIndexOfACycleWithTheFirstOfTheNext(RollCycle rollCycle) {
        long cycle = rollCycle.cycleAt(NOW);
        assertThat(rollCycle.toIndex(cycle, rollCycle.maxSequenceNumber()) + 1)
                .isEqualTo(rollCycle.toIndex(cycle + 1, 0));
    }

    @ParameterizedTest
    @EnumSource(RollCycle.class)
    void shouldPlaceTheClockInsideItsCycle(RollCycle rollCycle) {
        long cycle = rollCycle.cycleAt(NOW);
        assertThat(rollCycle.cycleStartMillis(cycle)).isLessThanOrEqualTo(NOW);
        assertThat(rollCycle.cycleStartMillis(cycle + 1)).isGreaterThan(NOW);
        assertThat(rollCycle.cycleStartMillis(cycle + 1) - rollCycle.cycleStartMillis(cycle))
                .isEqualTo(rollCycle.lengthMillis());
    }

    @Test
    void shouldUseUtcDateNamesForTheCommonCycles() {
        assertThat(RollCycle.DAILY.fileName(RollCycle.DAILY.cycleAt(NOW))).isEqualTo("20261122");
        assertThat(RollCycle.HOURLY.fileName(RollCycle.HOURLY.cycleAt(NOW))).isEqualTo("20261122-13");
        assertThat(RollCycle.FIVE_MINUTELY.fileName(RollCycle.FIVE_MINUTELY.cycleAt(NOW))).isEqualTo("20261122-1345");
        assertThat(RollCycle.TEST_SECONDLY.fileName(RollCycle.TEST_SECONDLY.cycleAt(NOW))).isEqualTo("20261122-134731");
    }

    @Test
    void shouldStartWeeksOnMonday() {
        // 2026-11-22 is a Sunday: its week started on Monday 2026-11-16.
        assertThat(RollCycle.WEEKLY.fileName(RollCycle.WEEKLY.cycleAt(NOW))).isEqualTo("20261116W");
    }

    @Test
    void shouldGiveTheLargeVariantsMoreSequenceBits() {
        assertThat(RollCycle.LARGE_DAILY.sequenceBits()).isGreaterThan(RollCycle.DAILY.sequenceBits());
        assertThat(RollCycle.XLARGE_DAILY.sequenceBits()).isGreaterThan(RollCycle.LARGE_DAILY.sequenceBits());
        assertThat(RollCycle.LARGE_HOURLY.sequenceBits()).isGreaterThan(RollCycle.HOURLY.sequenceBits());
    }

    @Test
    void shouldIndexEveryRollCycleWellPastTheYear2200() {
        long year2200 = java.time.Instant.parse("2200-01-01T00:00:00Z").toEpochMilli();
        for (RollCycle cycle : RollCycle.values()) {
            long last = cycle.lastCycle();
            assertThat(cycle.cycleStartMillis(last)).as(cycle.name()).isGreaterThan(year2200);
            long index = cycle.toIndex(last, cycle.maxSequenceNumber());
            assertThat(index).as(cycle.name()).isPositive();
            assertThat(cycle.toCycle(index)).isEqualTo(last);
            assertThat(cycle.toSequenceNumber(index)).isEqualTo(cycle.maxSequenceNumber());
        }
    }
}
