package io.cq.core;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Objects;
import java.util.Optional;

/**
 * When a queue's cycles begin: its {@link RollCycle} with the time of day it rolls at, in a time zone
 * ({@link MappedQueueBuilder#rollTime(LocalTime, ZoneId)}). Stored in the queue's table store, so every process on
 * the queue cuts time the same way (docs/file-format.md, "Cycles and roll times").
 *
 * <ul>
 *   <li>The default, midnight UTC, is the roll cycle's own arithmetic: cycles of a fixed length from the epoch
 *   (weekly ones from Monday).</li>
 *   <li>Daily and weekly cycles with a roll time follow the zone's calendar: cycle {@code n} begins at the roll time
 *   on the {@code n}-th local day (week, from Monday) after 1970-01-01, so a cycle lasts 23 or 25 hours across a
 *   daylight-saving change and the cycles stay numbered one per local day. A roll time that does not exist that
 *   day (inside a spring-forward gap) is moved later by the length of the gap; one that exists twice (inside a
 *   fall-back overlap) begins the cycle at the first. The file is named after the local date the cycle begins on.</li>
 *   <li>Shorter cycles with a roll time are shifted so that one begins at that time; their zone must have a
 *   fixed offset (UTC, or e.g. {@code +05:30}), since a daylight-saving change would move the cycles by an hour
 *   (or half, or a quarter) of a cycle. Their files are named after their local start.</li>
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class CycleCalendar {
    private static final long DAY_MILLIS = 86_400_000L;
    /** 1970-01-05, a Monday: weekly cycles count from it. */
    private static final long FIRST_MONDAY_EPOCH_DAY = 4;

    private final RollCycle rollCycle;
    private final LocalTime rollTime;
    private final ZoneId zone;
    /** Whether cycles follow the zone's calendar (daily and weekly with a roll time or zone). */
    private final boolean calendarDays;
    /** For fixed-length cycles: milliseconds from the epoch to the start of cycle 0. */
    private final long epochOffsetMillis;
    /** The zone file names show local times in: UTC by default, else the calendar's (a fixed offset, or days). */
    private final ZoneId namesZone;
    /** Milliseconds {@link #namesZone} is ahead of UTC, for cycles shorter than a day (its offset is fixed then). */
    private final long namesOffsetMillis;
    /** File names by hand (the usual case), or null where only a formatter will do. */
    private final CycleNames handNames;
    /** Built on first use only: see {@link CycleNames}. */
    private volatile DateTimeFormatter names;

    private CycleCalendar(RollCycle rollCycle, LocalTime rollTime, ZoneId zone) {
        this.rollCycle = Objects.requireNonNull(rollCycle, "rollCycle");
        this.rollTime = Objects.requireNonNull(rollTime, "rollTime");
        this.zone = Objects.requireNonNull(zone, "zone").normalized();
        boolean utcMidnight = rollTime.equals(LocalTime.MIDNIGHT) && this.zone.equals(ZoneOffset.UTC);
        boolean dayOrLonger = rollCycle.lengthMillis() % DAY_MILLIS == 0;
        this.calendarDays = dayOrLonger && !utcMidnight;
        if (!dayOrLonger && !this.zone.getRules().isFixedOffset()) {
            throw new IllegalArgumentException("rollTime " + rollTime + " in " + zone + " with " + rollCycle
                    + ": a zone with daylight-saving changes applies to daily and weekly cycles only; shorter cycles "
                    + "need a fixed offset (e.g. ZoneOffset.UTC or +05:30), since a change of offset would shift them "
                    + "by part of a cycle");
        }
        if (dayOrLonger || utcMidnight) {
            this.epochOffsetMillis = rollCycle.epochOffsetMillis();
        } else {
            long offsetMillis = this.zone.getRules().getOffset(Instant.EPOCH).getTotalSeconds() * 1000L;
            long rollMillis = rollTime.toNanoOfDay() / 1_000_000L - offsetMillis;
            this.epochOffsetMillis = Math.floorMod(rollMillis, rollCycle.lengthMillis());
        }
        this.namesZone = utcMidnight ? ZoneOffset.UTC : this.zone;
        this.namesOffsetMillis = calendarDays ? 0
                : namesZone.getRules().getOffset(Instant.EPOCH).getTotalSeconds() * 1000L;
        this.handNames = CycleNames.of(rollCycle.fileNamePattern());
    }

    private DateTimeFormatter names() {
        DateTimeFormatter formatter = names;
        if (formatter == null) {
            formatter = new DateTimeFormatterBuilder()
                    .appendPattern(rollCycle.fileNamePattern())
                    .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
                    .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
                    .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
                    .toFormatter()
                    .withZone(namesZone);
            names = formatter;
        }
        return formatter;
    }

    /** Cycles of the roll cycle's own arithmetic: from midnight UTC. */
    public static CycleCalendar of(RollCycle rollCycle) {
        return new CycleCalendar(rollCycle, LocalTime.MIDNIGHT, ZoneOffset.UTC);
    }

    /**
     * Cycles that begin at a time of day in a zone.
     *
     * @throws IllegalArgumentException for a cycle shorter than a day in a zone whose offset changes
     */
    public static CycleCalendar of(RollCycle rollCycle, LocalTime rollTime, ZoneId zone) {
        return new CycleCalendar(rollCycle, rollTime, zone);
    }

    public RollCycle rollCycle() {
        return rollCycle;
    }

    /** The time of day a cycle begins at (for cycles shorter than a day, one of them does). */
    public LocalTime rollTime() {
        return rollTime;
    }

    /** The zone of {@link #rollTime()}, normalized ({@code ZoneOffset.UTC} for "UTC", "Z", "GMT"...). */
    public ZoneId zone() {
        return zone;
    }

    /** Whether this is the default: midnight UTC. */
    public boolean isDefault() {
        return rollTime.equals(LocalTime.MIDNIGHT) && zone.equals(ZoneOffset.UTC);
    }

    /** The cycle that contains the given instant (milliseconds since the epoch). */
    public long cycleAt(long epochMillis) {
        if (!calendarDays) {
            return Math.floorDiv(epochMillis - epochOffsetMillis, rollCycle.lengthMillis());
        }
        LocalDate date = Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalDate();
        long cycle = cycleOfDate(date);
        // The local date gives the cycle up to one either way: before the roll time the previous one runs.
        while (cycleStartMillis(cycle) > epochMillis) {
            cycle--;
        }
        while (cycleStartMillis(cycle + 1) <= epochMillis) {
            cycle++;
        }
        return cycle;
    }

    /** Start of a cycle in milliseconds since the epoch. */
    public long cycleStartMillis(long cycle) {
        if (!calendarDays) {
            return cycle * rollCycle.lengthMillis() + epochOffsetMillis;
        }
        return ZonedDateTime.of(dateOf(cycle), rollTime, zone).toInstant().toEpochMilli();
    }

    /** The file name (without extension) of a cycle. */
    public String fileName(long cycle) {
        String name = null;
        if (calendarDays) {
            LocalDate date = dateOf(cycle);
            name = handNames == null ? null : handNames.format(date, 0);
            return name != null ? name : names().format(date);
        }
        long startMillis = cycleStartMillis(cycle);
        if (handNames != null) {
            // Sub-day cycles are named in a fixed offset (the constructor refuses others), so plain arithmetic does.
            long local = startMillis + namesOffsetMillis;
            name = handNames.format(LocalDate.ofEpochDay(Math.floorDiv(local, DAY_MILLIS)),
                    (int) (Math.floorMod(local, DAY_MILLIS) / 1000));
        }
        return name != null ? name : names().format(Instant.ofEpochMilli(startMillis));
    }

    /** The cycle a file name (without extension) stands for, or empty when the name is not one of ours. */
    public Optional<Long> parseCycle(String name) {
        try {
            LocalDateTime local = handNames == null ? null : handNames.parse(name);
            if (local == null) {
                local = LocalDateTime.from(names().parse(name));
            }
            // A name shows its cycle's start only down to the pattern's unit (an hour, a minute): the cycle is the
            // first that starts at or after the named time, which for a roll time off the hour is not cycleAt's.
            long cycle = calendarDays ? cycleOfDate(local.toLocalDate())
                    : Math.ceilDiv(localMillis(local) - namesOffsetMillis - epochOffsetMillis,
                    rollCycle.lengthMillis());
            return fileName(cycle).equals(name) ? Optional.of(cycle) : Optional.empty();
        } catch (DateTimeException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private long daysPerCycle() {
        return rollCycle.lengthMillis() / DAY_MILLIS;
    }

    private long firstEpochDay() {
        return daysPerCycle() == 7 ? FIRST_MONDAY_EPOCH_DAY : 0;
    }

    private LocalDate dateOf(long cycle) {
        return LocalDate.ofEpochDay(firstEpochDay() + cycle * daysPerCycle());
    }

    /**
     * A named local time as milliseconds of the names' zone, by arithmetic: sub-day cycles are named in a fixed
     * offset (the constructor refuses others), and {@code atZone(..).toInstant()} would initialize {@code Year}.
     */
    private static long localMillis(LocalDateTime local) {
        return CycleNames.epochDay(local.toLocalDate()) * DAY_MILLIS + local.toLocalTime().toSecondOfDay() * 1000L;
    }

    private long cycleOfDate(LocalDate date) {
        return Math.floorDiv(CycleNames.epochDay(date) - firstEpochDay(), daysPerCycle());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CycleCalendar that && rollCycle == that.rollCycle && rollTime.equals(that.rollTime)
                && zone.equals(that.zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rollCycle, rollTime, zone);
    }

    /** E.g. {@code DAILY at 17:00 America/New_York}. */
    @Override
    public String toString() {
        return rollCycle + " at " + rollTime + " " + zone.getId();
    }
}
