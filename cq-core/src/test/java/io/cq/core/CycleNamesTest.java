package io.cq.core;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Cycle file names written and read by hand are exactly what a {@code DateTimeFormatter} of the pattern makes. */
class CycleNamesTest {
    private static final long FROM = Instant.parse("1970-01-01T00:00:00Z").toEpochMilli();
    private static final long TO = Instant.parse("2400-01-01T00:00:00Z").toEpochMilli();

    private static DateTimeFormatter formatter(RollCycle cycle, ZoneId zone) {
        return new DateTimeFormatterBuilder().appendPattern(cycle.fileNamePattern())
                .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
                .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
                .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
                .toFormatter().withZone(zone);
    }

    /** Calls {@code check} with 2,000 random cycles of every roll cycle, the same ones each time. */
    private static void forRandomCyclesOfEveryRollCycle(CycleCheck check) {
        SplittableRandom random = new SplittableRandom(20261126L);
        for (RollCycle rollCycle : RollCycle.values()) {
            CycleCalendar calendar = CycleCalendar.of(rollCycle);
            for (int i = 0; i < 2_000; i++) {
                check.check(rollCycle, calendar, calendar.cycleAt(random.nextLong(FROM, TO)));
            }
        }
    }

    private interface CycleCheck {
        void check(RollCycle rollCycle, CycleCalendar calendar, long cycle);
    }

    @Test
    void shouldNameEveryRollCycleAsItsFormatterDoes() {
        forRandomCyclesOfEveryRollCycle((rollCycle, calendar, cycle) -> {
            DateTimeFormatter formatter = formatter(rollCycle, ZoneOffset.UTC);
            assertThat(calendar.fileName(cycle)).as("%s cycle %d", rollCycle, cycle)
                    .isEqualTo(formatter.format(Instant.ofEpochMilli(calendar.cycleStartMillis(cycle))));
        });
    }

    @Test
    void shouldReadEveryRollCyclesNameBack() {
        forRandomCyclesOfEveryRollCycle((rollCycle, calendar, cycle) -> {
            String name = calendar.fileName(cycle);
            assertThat(calendar.parseCycle(name)).as(name).contains(cycle);
        });
    }

    @Test
    void shouldNameCyclesWithARollTimeInTheirZoneAsTheFormatterDoes() {
        SplittableRandom random = new SplittableRandom(7L);
        List<CycleCalendar> calendars = List.of(
                CycleCalendar.of(RollCycle.DAILY, LocalTime.of(17, 0), ZoneId.of("America/New_York")),
                CycleCalendar.of(RollCycle.WEEKLY, LocalTime.of(6, 30), ZoneId.of("Europe/London")),
                CycleCalendar.of(RollCycle.LARGE_DAILY, LocalTime.of(22, 0), ZoneId.of("Asia/Tokyo")),
                CycleCalendar.of(RollCycle.HOURLY, LocalTime.of(0, 30), ZoneOffset.ofHoursMinutes(5, 30)),
                CycleCalendar.of(RollCycle.TEN_MINUTELY, LocalTime.of(9, 15), ZoneOffset.ofHours(-3)),
                CycleCalendar.of(RollCycle.TEST_SECONDLY, LocalTime.of(1, 2, 3), ZoneOffset.ofHours(14)));
        for (CycleCalendar calendar : calendars) {
            boolean days = calendar.rollCycle().lengthMillis() % 86_400_000L == 0;
            DateTimeFormatter formatter = formatter(calendar.rollCycle(), calendar.zone());
            for (int i = 0; i < 2_000; i++) {
                long cycle = calendar.cycleAt(random.nextLong(FROM, TO));
                Instant start = Instant.ofEpochMilli(calendar.cycleStartMillis(cycle));
                // Calendar days are named after the local date the cycle begins on, in the zone.
                String expected = days ? formatter.format(start.atZone(calendar.zone()).toLocalDate())
                        : formatter.format(start);
                String name = calendar.fileName(cycle);
                assertThat(name).as("%s cycle %d", calendar, cycle).isEqualTo(expected);
                assertThat(calendar.parseCycle(name)).as(name).contains(cycle);
            }
        }
    }

    @Test
    void shouldRefuseNamesThatAreNotCycles() {
        CycleCalendar daily = CycleCalendar.of(RollCycle.DAILY);
        CycleCalendar hourly = CycleCalendar.of(RollCycle.HOURLY);
        CycleCalendar weekly = CycleCalendar.of(RollCycle.WEEKLY);
        for (String name : List.of("", "2026112", "202611260", "2026-11-26", "20261131", "20261300", "2026112a",
                "metadata", "20260229")) {
            assertThat(daily.parseCycle(name)).as(name).isEqualTo(Optional.empty());
        }
        for (String name : List.of("20261126", "20261126-24", "20261126_10", "20261126-1", "20261126-100")) {
            assertThat(hourly.parseCycle(name)).as(name).isEqualTo(Optional.empty());
        }
        // A week starts on Monday: 2026-11-26 is a Thursday, so no weekly cycle carries its name.
        assertThat(weekly.parseCycle("20261126W")).isEqualTo(Optional.empty());
        assertThat(weekly.parseCycle("20261123")).isEqualTo(Optional.empty());
        assertThat(weekly.parseCycle("20261123W")).isPresent();
    }

    @Test
    void shouldCountTheSameEpochDaysAsLocalDateForEveryKindOfDay() {
        SplittableRandom random = new SplittableRandom(5_318_008L);
        for (int i = 0; i < 200_000; i++) {
            LocalDate date = LocalDate.ofEpochDay(random.nextLong(LocalDate.of(-2_000, 1, 1).toEpochDay(),
                    LocalDate.of(12_000, 12, 31).toEpochDay()));
            assertThat(CycleNames.epochDay(date)).as("%s", date).isEqualTo(date.toEpochDay());
        }
        // Around leap days, century and 400-year rules, and the epoch.
        for (int year : new int[] {-401, -400, -1, 0, 1, 1900, 1969, 1970, 1971, 2000, 2024, 2026, 2100, 2400, 9999}) {
            for (LocalDate date = LocalDate.of(year, 2, 26); date.isBefore(LocalDate.of(year, 3, 3));
                 date = date.plusDays(1)) {
                assertThat(CycleNames.epochDay(date)).as("%s", date).isEqualTo(date.toEpochDay());
            }
            LocalDate newYear = LocalDate.of(year, 1, 1);
            assertThat(CycleNames.epochDay(newYear)).isEqualTo(newYear.toEpochDay());
            assertThat(CycleNames.epochDay(newYear.minusDays(1))).isEqualTo(newYear.minusDays(1).toEpochDay());
        }
    }
}
