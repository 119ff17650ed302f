package io.cq.core.internal.settings;

import io.cq.core.CycleCalendar;
import io.cq.core.Durability;
import io.cq.core.QueueSettings;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;

import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/**
 * Checks a queue's settings once, before anything is opened, as Aeron's {@code Context.conclude()} does: every error
 * names each setting it is about as {@code name=value}, and says what range it must be in.
 */
public final class SettingsCheck {
    private static final Duration LONGEST_CHECK_INTERVAL = Duration.ofMinutes(10);
    private static final long LONGEST_TIMEOUT_DAYS = 365;

    private SettingsCheck() {
    }

    /** @throws IllegalArgumentException for the first setting out of range, naming it and its value */
    public static void check(QueueSettings settings) {
        BlockDescriptor.requireBlockSizeFits(settings.blockSize(), settings.rollCycle());
        checkCalendar(settings);
        BlockDescriptor.requireReserveStepFits(settings.reserveStep(), settings.blockSize());
        int indexSpacing = settings.indexSpacing();
        if (indexSpacing < 1 || indexSpacing > IndexDescriptor.MAX_INDEX_SPACING
                || Integer.bitCount(indexSpacing) != 1) {
            throw new IllegalArgumentException("indexSpacing=" + indexSpacing + " must be a power of two from 1 to "
                    + IndexDescriptor.MAX_INDEX_SPACING);
        }
        checkWriteLock(settings.writeLockCheckInterval(), settings.writeLockTimeout());
        if (settings.retainCycles() < 0 || settings.retainFor().isNegative()) {
            throw new IllegalArgumentException("retainCycles=" + settings.retainCycles() + ", retainFor="
                    + settings.retainFor() + ": must not be negative (0 keeps every cycle)");
        }
        if (settings.syncInterval().isNegative() || settings.syncInterval().isZero()) {
            throw new IllegalArgumentException("syncInterval=" + settings.syncInterval() + " must be positive");
        }
        long bytes = settings.diskSpaceWarningBytes();
        double percent = settings.diskSpaceWarningPercent();
        if (bytes < 0 || percent < 0 || percent > 100) {
            throw new IllegalArgumentException("diskSpaceWarning=" + bytes + " bytes, " + percent
                    + " %: bytes must not be negative and the percentage must be from 0 to 100");
        }
        if (!settings.filePermissions().contains(PosixFilePermission.OWNER_READ)
                || !settings.filePermissions().contains(PosixFilePermission.OWNER_WRITE)) {
            throw new IllegalArgumentException("filePermissions="
                    + PosixFilePermissions.toString(settings.filePermissions()) + " must let the owner read and write");
        }
        checkAsyncMode(settings);
    }

    /**
     * Checked when it is set, not with the rest: a queue keeps its roll time in whole milliseconds.
     *
     * @return {@code rollTime}
     */
    public static LocalTime wholeMilliseconds(LocalTime rollTime) {
        if (rollTime.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException("rollTime=" + rollTime + " has a fraction of a millisecond; the queue "
                    + "keeps its roll time in whole milliseconds, so give one (e.g. "
                    + rollTime.truncatedTo(ChronoUnit.MILLIS) + ")");
        }
        return rollTime;
    }

    /**
     * The calendar's own rule (a zone with daylight-saving changes). Its message names the roll time, its zone and the
     * cycle itself ("rollTime 00:00 in America/New_York with HOURLY: ..."), which the starter's failure analysis
     * reads to blame the zone's property: it is passed on as it is.
     */
    private static void checkCalendar(QueueSettings settings) {
        CycleCalendar.of(settings.rollCycle(), settings.rollTime(), settings.rollZone());
    }

    private static void checkWriteLock(Duration checkInterval, Duration timeout) {
        if (checkInterval.isNegative() || checkInterval.isZero()
                || checkInterval.compareTo(LONGEST_CHECK_INTERVAL) > 0) {
            throw new IllegalArgumentException("writeLockCheckInterval=" + checkInterval
                    + " must be positive and at most 10 minutes");
        }
        if (timeout.compareTo(checkInterval) <= 0 || timeout.toDays() > LONGEST_TIMEOUT_DAYS) {
            throw new IllegalArgumentException("writeLockTimeout=" + timeout + " must be longer than "
                    + "writeLockCheckInterval=" + checkInterval + " (so a dead holder is always found "
                    + "first) and at most 365 days");
        }
    }

    private static void checkAsyncMode(QueueSettings settings) {
        long size = settings.asyncBufferSize();
        if (size < AsyncRingDescriptor.MIN_CAPACITY || size > AsyncRingDescriptor.MAX_CAPACITY || size % 4096 != 0) {
            throw new IllegalArgumentException("asyncBufferSize=" + size + " must be a multiple of 4096 "
                    + "from " + AsyncRingDescriptor.MIN_CAPACITY + " (64 KiB) to " + AsyncRingDescriptor.MAX_CAPACITY
                    + " (1 GiB)");
        }
        if (settings.asyncMode() && settings.durability() == Durability.SYNC) {
            throw new IllegalArgumentException("asyncMode=true and durability=SYNC do not go together: an async "
                    + "append returns once the excerpt is in the buffer in memory, before it is in the queue's files; "
                    + "choose PAGE_CACHE or ASYNC durability, or leave async mode off");
        }
    }
}
