package io.cq.core.internal.queue;

import io.cq.core.CycleCalendar;
import io.cq.core.RollCycle;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class CycleClockTest {
    private static final Path DIRECTORY = Path.of("unused");
    private static final CycleCalendar DAILY = CycleCalendar.of(RollCycle.DAILY);

    private static long vouchedAt(CycleCalendar calendar, String instant) {
        MutableClock clock = new MutableClock(Instant.parse(instant));
        CycleClock cycleClock = CycleClock.of(clock, calendar, DIRECTORY, true);
        cycleClock.check();
        return cycleClock.vouchedCycle();
    }

    @Test
    void shouldVouchForTheCurrentCycleOnlyWhileItsEndIsMoreThanTheMarginAway() {
        CycleCalendar daily = CycleCalendar.of(RollCycle.DAILY);
        long today = daily.cycleAt(Instant.parse("2026-11-26T12:00:00Z").toEpochMilli());
        assertThat(vouchedAt(daily, "2026-11-26T00:00:00Z")).isEqualTo(today);
        assertThat(vouchedAt(daily, "2026-11-26T12:00:00Z")).isEqualTo(today);
        assertThat(vouchedAt(daily, "2026-11-26T23:59:58.999Z")).isEqualTo(today);
        // Within a second of midnight every append reads the clock.
        assertThat(vouchedAt(daily, "2026-11-26T23:59:59Z")).isEqualTo(CycleClock.NONE);
        assertThat(vouchedAt(daily, "2026-11-26T23:59:59.999Z")).isEqualTo(CycleClock.NONE);
        assertThat(vouchedAt(daily, "2026-11-27T00:00:00Z")).isEqualTo(today + 1);
    }

    @Test
    void shouldTakeAQuarterOfItsLengthAsTheMarginOfACycleShorterThanFourSeconds() {
        CycleCalendar secondly = CycleCalendar.of(RollCycle.TEST_SECONDLY);
        long cycle = secondly.cycleAt(Instant.parse("2026-11-26T12:00:07Z").toEpochMilli());
        assertThat(vouchedAt(secondly, "2026-11-26T12:00:07.000Z")).isEqualTo(cycle);
        assertThat(vouchedAt(secondly, "2026-11-26T12:00:07.749Z")).isEqualTo(cycle);
        assertThat(vouchedAt(secondly, "2026-11-26T12:00:07.750Z")).isEqualTo(CycleClock.NONE);
    }

    @Test
    void shouldFollowTheZoneCalendarAcrossADaylightSavingChange() {
        // New York's 25-hour day: the cycle of 2026-11-01 ends at the next local 17:00, 25 hours after it began.
        CycleCalendar trading = CycleCalendar.of(RollCycle.DAILY, LocalTime.of(17, 0), ZoneId.of("America/New_York"));
        long end = Instant.parse("2026-11-02T22:00:00Z").toEpochMilli();
        long cycle = trading.cycleAt(end - 1);
        assertThat(vouchedAt(trading, "2026-11-02T21:59:58.500Z")).isEqualTo(cycle);
        assertThat(vouchedAt(trading, "2026-11-02T21:59:59.500Z")).isEqualTo(CycleClock.NONE);
        assertThat(vouchedAt(trading, "2026-11-02T22:00:00Z")).isEqualTo(cycle + 1);
    }

    @Test
    void shouldVouchForNothingWithAClockOutsideWhatTheRollCycleCanIndex() {
        assertThat(vouchedAt(CycleCalendar.of(RollCycle.DAILY), "1960-01-01T12:00:00Z")).isEqualTo(CycleClock.NONE);
    }

    @Test
    void shouldWatchTheSystemClockInAnyZoneForAWritableQueue() {
        CycleClock system = CycleClock.of(Clock.systemUTC(), DAILY, DIRECTORY, true);
        CycleClock zoned = CycleClock.of(Clock.system(ZoneId.of("Asia/Tokyo")), DAILY, DIRECTORY, true);
        try {
            for (CycleClock cycleClock : new CycleClock[] {system, zoned}) {
                assertThat(cycleClock.isWatched()).isFalse();
                cycleClock.watch();
            }
            assertThat(system.isWatched()).isTrue();
            long now = System.currentTimeMillis();
            if (DAILY.cycleStartMillis(DAILY.cycleAt(now) + 1) - now > 2_000) {
                assertThat(system.vouchedCycle()).isEqualTo(DAILY.cycleAt(now));
            }
            assertThat(zoned.isWatched()).isTrue();
        } finally {
            system.close();
            zoned.close();
        }
    }

    @Test
    void shouldReadAnotherClockOnEveryAppendInsteadOfWatchingIt() {
        CycleClock own = CycleClock.of(new MutableClock(Instant.parse("2026-11-26T12:00:00Z")), DAILY, DIRECTORY,
                true);
        assertThat(own.isWatched()).isFalse();
        own.watch();
        assertThat(own.isWatched()).isFalse();
        assertThat(own.vouchedCycle()).isEqualTo(CycleClock.NONE);
    }

    @Test
    void shouldNotWatchTheClockOfAReadOnlyQueue() {
        CycleClock readOnly = CycleClock.of(Clock.systemUTC(), DAILY, DIRECTORY, false);
        try {
            assertThat(readOnly.isWatched()).isFalse();
            readOnly.watch();
            assertThat(readOnly.isWatched()).isFalse();
        } finally {
            readOnly.close();
        }
    }

    @Test
    void shouldStopWatchingForGoodOnceClosed() {
        CycleClock system = CycleClock.of(Clock.systemUTC(), DAILY, DIRECTORY, true);
        system.watch();
        system.close();
        assertThat(system.vouchedCycle()).isEqualTo(CycleClock.NONE);
        system.watch();
        assertThat(system.isWatched()).as("closed: not watched again").isFalse();
    }
}
