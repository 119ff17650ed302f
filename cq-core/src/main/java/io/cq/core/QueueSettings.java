package io.cq.core;

import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;

import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a queue was opened with, checked by {@link MappedQueueBuilder#build()}: the one place the engine
 * reads its configuration from, and what monitoring shows ({@link MappedQueue#settings()}, the Actuator
 * endpoint, {@code cq stats}). Immutable.
 *
 * <p>From {@link MappedQueue#settings()}, {@link #rollCycle()} is the roll cycle in force: the one the queue was
 * created with, which may differ from the one requested for an existing queue.
 *
 * @param directory               the queue's directory
 * @param rollCycle               how the queue is cut into files
 * @param clock                   what decides the current cycle
 * @param blockSize               bytes mapped at a time, by which cycle files grow
 * @param indexSpacing            every how many excerpts the index records a position (a power of two)
 * @param reserveStep             how far ahead of the write position a cycle file's disk blocks are reserved
 * @param readOnly                whether nothing may be written
 * @param writeLockCheckInterval  how often a waiting appender checks whether the lock's holder is alive
 * @param writeLockTimeout        how long an appender waits for a live holder's write lock before it fails
 * @param durability              when appended excerpts are forced to storage
 * @param syncInterval            how often {@link Durability#ASYNC} forces written pages
 * @param pretouch                whether a background pretoucher runs
 * @param retainCycles            cycles kept, the current one included (0: all)
 * @param retainFor               age past which a cycle's file is deleted ({@link Duration#ZERO}: never)
 * @param retentionKeepsUnread    whether retention keeps files a named tailer has not finished reading
 * @param storeFileListener       told when cycle files are opened, released and deleted
 * @param filePermissions         permissions of the files cq creates
 * @param diskSpaceWarningBytes   free bytes below which a warning is logged (0: off)
 * @param diskSpaceWarningPercent free percentage below which a warning is logged (0: off)
 * @param refuseSharedDirectory   whether a queue directory every user may write to is refused (else warned about)
 * @param requireLocalFilesystem  whether a directory on a network or FUSE file system is refused (else warned about)
 * @param rollTime                the time of day cycles begin at ({@link CycleCalendar})
 * @param rollZone                the zone of the roll time
 * @param doubleBuffer            whether a writer that finds the write lock taken writes into a buffer of its own
 *                                and copies it in once it holds the lock
 * @param asyncMode               whether writers add to an async buffer in shared memory that is drained into the
 *                                queue in the background (kept in the table store: the queue's, not this process's)
 * @param asyncBufferSize         bytes of records in the async buffer
 * @param asyncBufferDirectory    where the async buffer's file is
 * @param asyncDrain              whether this process takes its turn draining the async buffer
 */
public record QueueSettings(Path directory, RollCycle rollCycle, Clock clock, long blockSize, int indexSpacing,
                            long reserveStep, boolean readOnly, Duration writeLockCheckInterval,
                            Duration writeLockTimeout, Durability durability, Duration syncInterval, boolean pretouch,
                            int retainCycles, Duration retainFor,
                            boolean retentionKeepsUnread, StoreFileListener storeFileListener,
                            Set<PosixFilePermission> filePermissions, long diskSpaceWarningBytes,
                            double diskSpaceWarningPercent, boolean refuseSharedDirectory,
                            boolean requireLocalFilesystem, LocalTime rollTime, ZoneId rollZone,
                            boolean doubleBuffer, boolean asyncMode, long asyncBufferSize, Path asyncBufferDirectory,
                            boolean asyncDrain, ExcerptCodecs codecs, EncryptionKeys encryptionKeys) {
    public QueueSettings {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(rollCycle, "rollCycle");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(writeLockCheckInterval, "writeLockCheckInterval");
        Objects.requireNonNull(writeLockTimeout, "writeLockTimeout");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(syncInterval, "syncInterval");
        Objects.requireNonNull(retainFor, "retainFor");
        Objects.requireNonNull(storeFileListener, "storeFileListener");
        Objects.requireNonNull(rollTime, "rollTime");
        Objects.requireNonNull(rollZone, "rollZone");
        Objects.requireNonNull(asyncBufferDirectory, "asyncBufferDirectory");
        Objects.requireNonNull(codecs, "codecs");
        filePermissions = Set.copyOf(filePermissions);
    }

    /**
     * The settings as text for monitoring (the Actuator endpoint, {@code cq stats}), in declaration order, the
     * directory left out (it is shown on its own): durations in ISO-8601 ({@code PT0.2S}), permissions as
     * {@code rw-------}, a listener by its class, or {@code none} for the default.
     */
    public Map<String, String> describe() {
        Map<String, String> shown = new LinkedHashMap<>();
        shown.put("rollCycle", rollCycle.name());
        shown.put("clock", clock.toString());
        shown.put("blockSize", Long.toString(blockSize));
        shown.put("indexSpacing", Integer.toString(indexSpacing));
        shown.put("reserveStep", Long.toString(reserveStep));
        shown.put("readOnly", Boolean.toString(readOnly));
        shown.put("writeLockCheckInterval", writeLockCheckInterval.toString());
        shown.put("writeLockTimeout", writeLockTimeout.toString());
        shown.put("durability", durability.name());
        shown.put("syncInterval", syncInterval.toString());
        shown.put("pretouch", Boolean.toString(pretouch));
        shown.put("retainCycles", Integer.toString(retainCycles));
        shown.put("retainFor", retainFor.toString());
        shown.put("retentionKeepsUnread", Boolean.toString(retentionKeepsUnread));
        shown.put("storeFileListener", storeFileListener.getClass().isAnonymousClass()
                && storeFileListener.getClass().getEnclosingClass() == MappedQueueBuilder.class
                ? "none" : storeFileListener.getClass().getName());
        shown.put("filePermissions", PosixFilePermissions.toString(filePermissions));
        shown.put("diskSpaceWarningBytes", Long.toString(diskSpaceWarningBytes));
        shown.put("diskSpaceWarningPercent", Double.toString(diskSpaceWarningPercent));
        shown.put("refuseSharedDirectory", Boolean.toString(refuseSharedDirectory));
        shown.put("requireLocalFilesystem", Boolean.toString(requireLocalFilesystem));
        shown.put("rollTime", rollTime.toString());
        shown.put("rollZone", rollZone.getId());
        shown.put("doubleBuffer", Boolean.toString(doubleBuffer));
        shown.put("asyncMode", Boolean.toString(asyncMode));
        shown.put("asyncBufferSize", Long.toString(asyncBufferSize));
        shown.put("asyncBufferDirectory", asyncBufferDirectory.toString());
        shown.put("asyncDrain", Boolean.toString(asyncDrain));
        shown.put("codecs", codecs.describe());
        return shown;
    }

    /** When cycles begin: the roll cycle with the roll time in its zone. */
    public CycleCalendar calendar() {
        return CycleCalendar.of(rollCycle, rollTime, rollZone);
    }

    /** The same settings with another calendar: the one an existing queue was created with. */
    public QueueSettings withCalendar(CycleCalendar inForce) {
        return copy(inForce.rollCycle(), inForce.rollTime(), inForce.zone(), durability, asyncMode, asyncBufferSize,
                asyncBufferDirectory);
    }

    /** The same settings with another durability: a read-only queue writes nothing, so forces nothing. */
    public QueueSettings withDurability(Durability inForce) {
        return copy(rollCycle, rollTime, rollZone, inForce, asyncMode, asyncBufferSize, asyncBufferDirectory);
    }

    /** The same settings with the async buffer an existing queue was created with (or none). */
    public QueueSettings withAsyncBuffer(boolean inForce, long bufferSize, Path bufferDirectory) {
        return copy(rollCycle, rollTime, rollZone, durability, inForce, bufferSize, bufferDirectory);
    }

    /** The same settings with the codecs an existing queue was created with, and the keys given for them. */
    public QueueSettings withCodecs(ExcerptCodecs inForce) {
        return new QueueSettings(directory, rollCycle, clock, blockSize, indexSpacing, reserveStep, readOnly,
                writeLockCheckInterval, writeLockTimeout, durability, syncInterval, pretouch, retainCycles,
                retainFor, retentionKeepsUnread, storeFileListener, filePermissions, diskSpaceWarningBytes,
                diskSpaceWarningPercent, refuseSharedDirectory, requireLocalFilesystem, rollTime, rollZone,
                doubleBuffer, asyncMode, asyncBufferSize, asyncBufferDirectory, asyncDrain, inForce, inForce.keys());
    }

    /** With what an existing queue, or a read-only one, puts in force: the one place the other settings are copied. */
    private QueueSettings copy(RollCycle cycle, LocalTime time, ZoneId zone, Durability durabilityInForce,
                               boolean asyncModeInForce, long bufferSize, Path bufferDirectory) {
        return new QueueSettings(directory, cycle, clock, blockSize, indexSpacing, reserveStep, readOnly,
                writeLockCheckInterval, writeLockTimeout, durabilityInForce, syncInterval, pretouch, retainCycles,
                retainFor, retentionKeepsUnread, storeFileListener, filePermissions, diskSpaceWarningBytes,
                diskSpaceWarningPercent, refuseSharedDirectory, requireLocalFilesystem, time, zone, doubleBuffer,
                asyncModeInForce, bufferSize, bufferDirectory, asyncDrain, codecs, encryptionKeys);
    }
}
