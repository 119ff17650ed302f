package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.MutableClock;
import io.cq.core.support.ZonedAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cycles that begin at a time of day in a time zone, across daylight-saving changes (docs/file-format.md). */
class RollTimeTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId LONDON = ZoneId.of("Europe/London");

    @TempDir
    Path dir;

    private static Instant at(String localDateTime, ZoneId zone) {
        return LocalDateTime.parse(localDateTime).atZone(zone).toInstant();
    }

    /** New York's 2026 changes: 8 March loses an hour, 1 November gains one. Trading days roll at 17:00. */
    @Test
    void shouldKeepOneCycleANewYorkTradingDayAcrossBothDaylightSavingChanges() {
        CycleCalendar calendar = CycleCalendar.of(RollCycle.DAILY, LocalTime.of(17, 0), NEW_YORK);
        long march7 = calendar.cycleAt(at("2026-03-07T17:00", NEW_YORK).toEpochMilli());
        assertThat(calendar.fileName(march7)).isEqualTo("20260307");
        assertThat(calendar.cycleAt(at("2026-03-07T16:59:59.999", NEW_YORK).toEpochMilli())).isEqualTo(march7 - 1);
        assertThat(calendar.cycleAt(at("2026-03-08T16:59:59.999", NEW_YORK).toEpochMilli())).isEqualTo(march7);
        assertThat(calendar.cycleAt(at("2026-03-08T17:00", NEW_YORK).toEpochMilli())).isEqualTo(march7 + 1);
        assertThat(hours(calendar, march7)).isEqualTo(23);
        assertThat(hours(calendar, march7 + 1)).isEqualTo(24);

        long october31 = calendar.cycleAt(at("2026-10-31T17:00", NEW_YORK).toEpochMilli());
        assertThat(calendar.fileName(october31)).isEqualTo("20261031");
        assertThat(hours(calendar, october31)).isEqualTo(25);
        // 01:30 happens twice on 1 November: both belong to the trading day that began on 31 October.
        assertThat(calendar.cycleAt(Instant.parse("2026-11-01T05:30:00Z").toEpochMilli())).isEqualTo(october31);
        assertThat(calendar.cycleAt(Instant.parse("2026-11-01T06:30:00Z").toEpochMilli())).isEqualTo(october31);
        // One cycle per local day between the two changes, numbered without a gap.
        assertThat(october31 - march7).isEqualTo(238);
        for (long cycle = march7 - 3; cycle <= october31 + 3; cycle++) {
            assertThat(calendar.parseCycle(calendar.fileName(cycle))).contains(cycle);
            assertThat(calendar.cycleAt(calendar.cycleStartMillis(cycle))).isEqualTo(cycle);
            assertThat(calendar.cycleAt(calendar.cycleStartMillis(cycle + 1) - 1)).isEqualTo(cycle);
        }
    }

    /** London's 2026 changes: 29 March 01:00 -> 02:00, 25 October 02:00 -> 01:00. A roll time inside both. */
    @Test
    void shouldPlaceARollTimeThatFallsInAGapOrAnOverlapDeterministically() {
        CycleCalendar calendar = CycleCalendar.of(RollCycle.DAILY, LocalTime.of(1, 30), LONDON);
        long march29 = calendar.cycleAt(at("2026-03-29T12:00", LONDON).toEpochMilli());
        assertThat(calendar.fileName(march29)).isEqualTo("20260329");
        // 01:30 does not exist on 29 March: the cycle begins an hour (the gap) later, at 02:30 BST.
        assertThat(Instant.ofEpochMilli(calendar.cycleStartMillis(march29)))
                .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
        assertThat(hours(calendar, march29 - 1)).isEqualTo(24);
        assertThat(hours(calendar, march29)).isEqualTo(23);
        long october25 = calendar.cycleAt(at("2026-10-25T12:00", LONDON).toEpochMilli());
        // 01:30 happens twice on 25 October: the cycle begins at the first (BST, 00:30 UTC).
        assertThat(Instant.ofEpochMilli(calendar.cycleStartMillis(october25)))
                .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(hours(calendar, october25 - 1)).isEqualTo(24);
        assertThat(hours(calendar, october25)).isEqualTo(25);
    }

    @Test
    void shouldWriteEachExcerptToTheFileOfItsLocalTradingDay() throws Exception {
        MutableClock clock = new MutableClock(at("2026-03-06T12:00", NEW_YORK));
        List<String> expectedFiles = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).rollTime(LocalTime.of(17, 0), NEW_YORK).clock(clock)
                .build(); ExcerptAppender appender = queue.createAppender()) {
            // Every 6 hours for four days around the spring change, and the same around the autumn one.
            for (Instant start : List.of(at("2026-03-06T12:00", NEW_YORK), at("2026-10-30T12:00", NEW_YORK))) {
                for (int step = 0; step < 16; step++) {
                    Instant now = start.plus(Duration.ofHours(6L * step));
                    clock.set(now);
                    long index = appender.writeText(now.toString());
                    long cycle = queue.rollCycle().toCycle(index);
                    String localDay = now.atZone(NEW_YORK).toLocalTime().isBefore(LocalTime.of(17, 0))
                            ? now.atZone(NEW_YORK).toLocalDate().minusDays(1).toString()
                            : now.atZone(NEW_YORK).toLocalDate().toString();
                    assertThat(queue.cycleCalendar().fileName(cycle)).as(now.toString())
                            .isEqualTo(localDay.replace("-", ""));
                    expectedFiles.add(localDay.replace("-", "") + ".cq4");
                }
            }
            assertThat(queue.settings().describe()).containsEntry("rollTime", "17:00")
                    .containsEntry("rollZone", "America/New_York");
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".cq4")).sorted())
                    .containsExactlyElementsOf(expectedFiles.stream().distinct().sorted().toList());
        }
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            List<String> read = new ArrayList<>();
            for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                read.add(text);
            }
            assertThat(read).hasSize(32).isSorted();
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    private void createRollingAt17NewYork() {
        try (MappedQueue queue = MappedQueue.builder(dir).rollTime(LocalTime.of(17, 0), NEW_YORK).build()) {
            assertThat(queue.cycleCalendar().zone()).isEqualTo(NEW_YORK);
        }
    }

    @Test
    void shouldRefuseAnotherRollTime() {
        createRollingAt17NewYork();
        assertThatThrownBy(() -> MappedQueue.builder(dir).rollTime(LocalTime.of(17, 0), LONDON).build())
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("rolls at 17:00 America/New_York")
                .hasMessageContaining("asked for 17:00 Europe/London");
        assertThatThrownBy(() -> MappedQueue.builder(dir).rollTime(LocalTime.MIDNIGHT).build())
                .hasMessageContaining("rolls at 17:00 America/New_York");
    }

    @Test
    void shouldLetAProcessThatNamesNoRollTimeCutTheSameCycles() throws Exception {
        createRollingAt17NewYork();
        // Another JVM that names no roll time cuts the same cycles: 16:59 New York on 8 March is still 7 March's.
        try (ChildJvm child = ChildJvm.start(false, List.of(), ZonedAppender.class, dir.toString(),
                "2026-03-08T20:59:00Z", "late")) {
            String line = child.awaitLine("appended", 30, TimeUnit.SECONDS);
            assertThat(line).startsWith("appended 17:00 America/New_York 20260307 ");
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void shouldShiftCyclesShorterThanADayOnlyInAZoneWithAFixedOffset() {
        assertThatThrownBy(() -> MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY)
                .rollTime(LocalTime.of(0, 30), LONDON).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("daily and weekly cycles only");
        CycleCalendar india = CycleCalendar.of(RollCycle.HOURLY, LocalTime.MIDNIGHT, ZoneOffset.ofHoursMinutes(5, 30));
        long cycle = india.cycleAt(Instant.parse("2026-11-25T10:45:00Z").toEpochMilli());
        assertThat(Instant.ofEpochMilli(india.cycleStartMillis(cycle)))
                .isEqualTo(Instant.parse("2026-11-25T10:30:00Z"));
        assertThat(india.fileName(cycle)).isEqualTo("20261125-16");
        assertThat(india.parseCycle("20261125-16")).contains(cycle);
    }

    /** Names of shifted hourly cycles show only the hour their start falls in: 10:30's file is "-10". */
    @Test
    void shouldFindTheCycleOfEveryFileNameWhenTheRollTimeIsOffTheHour() {
        for (CycleCalendar calendar : List.of(CycleCalendar.of(RollCycle.HOURLY, LocalTime.of(9, 30), ZoneOffset.UTC),
                CycleCalendar.of(RollCycle.HOURLY, LocalTime.of(9, 15), ZoneOffset.ofHoursMinutes(5, 30)),
                CycleCalendar.of(RollCycle.FIVE_MINUTELY, LocalTime.of(0, 2, 30), ZoneOffset.UTC),
                CycleCalendar.of(RollCycle.MINUTELY, LocalTime.of(0, 0, 20), ZoneOffset.ofHours(-3)))) {
            long first = calendar.cycleAt(Instant.parse("2026-11-25T10:45:00Z").toEpochMilli());
            for (long cycle = first - 30; cycle <= first + 30; cycle++) {
                assertThat(calendar.parseCycle(calendar.fileName(cycle))).as(calendar + " " + calendar.fileName(cycle))
                        .contains(cycle);
            }
        }
    }

    @Test
    void shouldReadFromTheStartAcrossShiftedHourlyCycles() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T09:40:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY)
                .rollTime(LocalTime.of(9, 30)).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int hour = 0; hour < 4; hour++) {
                clock.set(Instant.parse("2026-11-25T09:40:00Z").plus(Duration.ofHours(hour)));
                appender.writeText("hour " + hour);
            }
            assertThat(queue.cycles()).hasSize(4);
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int hour = 0; hour < 4; hour++) {
                    assertThat(tailer.readText()).isEqualTo("hour " + hour);
                }
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldRefuseARollTimeFinerThanAMillisecond() {
        assertThatThrownBy(() -> MappedQueue.builder(dir).rollTime(LocalTime.of(17, 0, 0, 123_456)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fraction of a millisecond");
    }

    @Test
    void shouldStartWeeklyCyclesOnMondayAtTheRollTime() {
        CycleCalendar calendar = CycleCalendar.of(RollCycle.WEEKLY, LocalTime.of(6, 0), NEW_YORK);
        long cycle = calendar.cycleAt(at("2026-11-25T12:00", NEW_YORK).toEpochMilli());
        assertThat(Instant.ofEpochMilli(calendar.cycleStartMillis(cycle)).atZone(NEW_YORK).toLocalDateTime())
                .isEqualTo(LocalDateTime.parse("2026-11-23T06:00"));
        assertThat(calendar.fileName(cycle)).isEqualTo("20261123W");
        assertThat(calendar.parseCycle("20261123W")).contains(cycle);
        assertThat(calendar.parseCycle("20261124W")).isEmpty();
    }

    @Test
    void shouldKeepTheDefaultCalendarIdenticalToTheRollCyclesArithmetic() {
        for (RollCycle roll : RollCycle.values()) {
            CycleCalendar calendar = CycleCalendar.of(roll);
            long now = Instant.parse("2026-11-25T10:45:31Z").toEpochMilli();
            long cycle = roll.cycleAt(now);
            assertThat(calendar.cycleAt(now)).isEqualTo(cycle);
            assertThat(calendar.cycleStartMillis(cycle)).isEqualTo(roll.cycleStartMillis(cycle));
            assertThat(calendar.fileName(cycle)).isEqualTo(roll.fileName(cycle));
            assertThat(calendar.parseCycle(roll.fileName(cycle))).contains(cycle);
        }
    }

    private static long hours(CycleCalendar calendar, long cycle) {
        return Duration.ofMillis(calendar.cycleStartMillis(cycle + 1) - calendar.cycleStartMillis(cycle)).toHours();
    }
}
