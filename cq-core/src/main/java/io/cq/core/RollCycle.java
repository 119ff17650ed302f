package io.cq.core;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * How a queue is cut into files: one file per cycle of {@link #lengthMillis()} milliseconds, counted in UTC
 * from the queue's clock.
 *
 * <p>An excerpt's index is {@code cycle << sequenceBits | sequence}, where {@code sequence} counts the excerpts
 * of that cycle from 0. The {@code LARGE_} and {@code XLARGE_} variants leave more bits to the sequence, for
 * cycles that hold more than 4 billion excerpts. {@code indexCount} sizes the cycle file's two-level index:
 * {@code indexCount * indexCount * indexSpacing} excerpts per cycle are indexed; later ones are still written
 * and read, but found by scanning from the last indexed one.
 *
 * <p>Weekly cycles start on Monday 00:00 UTC. Instances are immutable and thread-safe.
 */
public enum RollCycle {
    TEST_SECONDLY("yyyyMMdd-HHmmss", 1_000L, 24, 128),
    MINUTELY("yyyyMMdd-HHmm", 60_000L, 32, 4096),
    FIVE_MINUTELY("yyyyMMdd-HHmm", 5 * 60_000L, 32, 4096),
    TEN_MINUTELY("yyyyMMdd-HHmm", 10 * 60_000L, 32, 4096),
    TWENTY_MINUTELY("yyyyMMdd-HHmm", 20 * 60_000L, 32, 4096),
    HALF_HOURLY("yyyyMMdd-HHmm", 30 * 60_000L, 32, 4096),
    HOURLY("yyyyMMdd-HH", 3_600_000L, 32, 4096),
    TWO_HOURLY("yyyyMMdd-HH", 2 * 3_600_000L, 32, 4096),
    FOUR_HOURLY("yyyyMMdd-HH", 4 * 3_600_000L, 32, 4096),
    SIX_HOURLY("yyyyMMdd-HH", 6 * 3_600_000L, 32, 4096),
    DAILY("yyyyMMdd", 86_400_000L, 32, 8192),
    WEEKLY("yyyyMMdd'W'", 7 * 86_400_000L, 32, 8192),
    LARGE_HOURLY("yyyyMMdd-HH'L'", 3_600_000L, 40, 8192),
    LARGE_DAILY("yyyyMMdd'L'", 86_400_000L, 40, 8192),
    // 46 sequence bits leave 17 to the cycle: days up to the year 2328 (with 48, indexes overflowed in 2059).
    XLARGE_DAILY("yyyyMMdd'X'", 86_400_000L, 46, 16384);

    /** Day 4 of the epoch, 1970-01-05, was a Monday. */
    private static final long MONDAY_OFFSET_MILLIS = 4 * 86_400_000L;

    private final String fileNamePattern;
    private final long lengthMillis;
    private final int sequenceBits;
    private final int indexCount;
    /** Built on first use: formatters for all cycles would cost start-up time that one queue does not need. */
    private volatile DateTimeFormatter formatter;

    RollCycle(String fileNamePattern, long lengthMillis, int sequenceBits, int indexCount) {
        this.fileNamePattern = fileNamePattern;
        this.lengthMillis = lengthMillis;
        this.sequenceBits = sequenceBits;
        this.indexCount = indexCount;
    }

    private DateTimeFormatter formatter() {
        DateTimeFormatter current = formatter;
        if (current == null) {
            current = new DateTimeFormatterBuilder()
                    .appendPattern(fileNamePattern)
                    .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
                    .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
                    .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
                    .toFormatter()
                    .withZone(ZoneOffset.UTC);
            formatter = current;
        }
        return current;
    }

    /** Length of one cycle in milliseconds. */
    public long lengthMillis() {
        return lengthMillis;
    }

    /** The {@link DateTimeFormatter} pattern of the cycle file names, applied to the cycle's start in UTC. */
    public String fileNamePattern() {
        return fileNamePattern;
    }

    /** Bits of the index that hold the sequence number within a cycle. */
    public int sequenceBits() {
        return sequenceBits;
    }

    /** Entries per index block, and index blocks per cycle file. */
    public int indexCount() {
        return indexCount;
    }

    /** Milliseconds from the epoch to the start of cycle 0. */
    public long epochOffsetMillis() {
        return this == WEEKLY ? MONDAY_OFFSET_MILLIS : 0L;
    }

    /** The cycle that contains the given instant (milliseconds since the epoch, UTC). */
    public long cycleAt(long epochMillis) {
        return Math.floorDiv(epochMillis - epochOffsetMillis(), lengthMillis);
    }

    /** Start of a cycle in milliseconds since the epoch. */
    public long cycleStartMillis(long cycle) {
        return cycle * lengthMillis + epochOffsetMillis();
    }

    /** The index of an excerpt. */
    public long toIndex(long cycle, long sequenceNumber) {
        return (cycle << sequenceBits) | sequenceNumber;
    }

    /** The cycle part of an index. */
    public long toCycle(long index) {
        return index >>> sequenceBits;
    }

    /** The sequence-number part of an index. */
    public long toSequenceNumber(long index) {
        return index & ((1L << sequenceBits) - 1);
    }

    /**
     * The last cycle whose excerpts have an index: {@code cycle << sequenceBits} must stay a positive long. For
     * every roll cycle it lies after the year 2300 (docs/file-format.md, "A queue directory").
     */
    public long lastCycle() {
        return Long.MAX_VALUE >>> sequenceBits;
    }

    /** Largest sequence number a cycle can hold. */
    public long maxSequenceNumber() {
        return (1L << sequenceBits) - 1;
    }

    /** The file name (without extension) of a cycle. */
    public String fileName(long cycle) {
        return formatter().format(Instant.ofEpochMilli(cycleStartMillis(cycle)));
    }

    /** The cycle a file name (without extension) stands for, or empty when the name is not one of ours. */
    public Optional<Long> parseCycle(String name) {
        try {
            var parsed = formatter().parse(name);
            long millis = LocalDateTime.from(parsed).toInstant(ZoneOffset.UTC).toEpochMilli();
            long cycle = cycleAt(millis);
            return fileName(cycle).equals(name) ? Optional.of(cycle) : Optional.empty();
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }
}
