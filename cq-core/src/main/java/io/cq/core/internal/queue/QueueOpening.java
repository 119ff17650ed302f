package io.cq.core.internal.queue;

import io.cq.core.CycleCalendar;
import io.cq.core.Durability;
import io.cq.core.MappedQueue;
import io.cq.core.QueueFilesystem;
import io.cq.core.QueueSettings;
import io.cq.core.RollCycle;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.file.QueueDirectory;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.lock.LeftoverTokens;
import io.cq.core.internal.named.NamedTailerSlots;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.FilesystemGuard;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.AsyncBufferConfig;
import io.cq.core.internal.table.TableStore;
import io.cq.core.internal.table.TableStores;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Opening a {@link StoreQueue}: its directory, table store, settings in force, cycle files and async buffer, each
 * checked as it is opened. What was opened before a step that fails is closed in reverse order on one path,
 * {@link #closeOpened(Throwable)}, and the failure thrown on.
 */
final class QueueOpening {
    DiskSpaceMonitor diskSpace;
    QueueFilesystem filesystem;
    TableStore tableStore;
    NamedTailerSlots namedTailers;
    QueueSettings settings;
    CycleFiles files;
    QueueExtent extent;
    CycleClock cycleClock;
    QueueContext context;
    AsyncFront front;
    private final boolean readOnly;

    QueueOpening(StoreQueue queue, QueueSettings requested, boolean rollCycleChosen, boolean rollTimeChosen,
                 boolean asyncChosen, boolean codecsChosen, boolean repairing, Set<AutoCloseable> resources,
                 AppendCounter appended, AsyncFront.Opener asyncFronts) {
        readOnly = requested.readOnly();
        try {
            open(queue, requested, rollCycleChosen, rollTimeChosen, asyncChosen, codecsChosen, repairing, resources,
                    appended, asyncFronts);
        } catch (RuntimeException | Error e) {
            closeOpened(e);
            throw e;
        }
    }

    private void open(StoreQueue queue, QueueSettings requested, boolean rollCycleChosen, boolean rollTimeChosen,
                      boolean asyncChosen, boolean codecsChosen, boolean repairing, Set<AutoCloseable> resources,
                      AppendCounter appended, AsyncFront.Opener asyncFronts) {
        Path directory = requested.directory();
        long blockSize = requested.blockSize();
        RollCycle requestedRollCycle = requested.rollCycle();
        FilePermissions permissions = new FilePermissions(requested.filePermissions());
        QueueDirectory.prepare(directory, readOnly, permissions, requested.refuseSharedDirectory());
        diskSpace = new DiskSpaceMonitor(directory, requested.diskSpaceWarningBytes(),
                requested.diskSpaceWarningPercent());
        filesystem = FilesystemGuard.detect(diskSpace);
        FilesystemGuard.check(directory, filesystem, requested.requireLocalFilesystem());
        AsyncBufferConfig asyncRequested = requested.asyncMode()
                ? new AsyncBufferConfig(requested.asyncBufferSize(), newQueueId(),
                requested.asyncBufferDirectory().toString())
                : AsyncBufferConfig.NONE;
        tableStore = TableStores.open(directory, readOnly, requested.calendar(), asyncRequested,
                codecsChosen ? requested.codecs() : ExcerptCodecs.none(), requested.clock().millis(), permissions);
        if (!readOnly) {
            LeftoverTokens.clearOnOpening(tableStore);
        }
        AsyncBufferConfig async = tableStore.asyncBuffer();
        if (asyncChosen && async.enabled() != requested.asyncMode()) {
            throw Failures.asyncModeMismatch("queue " + directory + " was created "
                    + (async.enabled() ? "in" : "without") + " async mode (kept in its table store); this process "
                    + "asked for it " + (requested.asyncMode() ? "on" : "off") + ". Every process on a queue must "
                    + "write the same way: ask for the queue's mode, or leave it unset", async.enabled());
        }
        CycleCalendar calendar = tableStore.calendar();
        RollCycle rollCycle = calendar.rollCycle();
        if (rollTimeChosen && (!calendar.rollTime().equals(requested.rollTime())
                || !calendar.zone().equals(requested.rollZone().normalized()))) {
            throw Failures.rollTimeMismatch("queue " + directory + " rolls at " + calendar.rollTime() + " "
                    + calendar.zone().getId() + " (kept in its table store since it was created); this process asked "
                    + "for " + requested.rollTime() + " " + requested.rollZone().getId() + ". Every process on a "
                    + "queue must cut cycles the same way: ask for the queue's roll time, or none", calendar);
        }
        if (rollCycle != requestedRollCycle) {
            if (rollCycleChosen) {
                Log.warning(MappedQueue.class, "queue {0} was created with roll cycle {1}; using it instead of the "
                        + "requested {2}", directory, rollCycle, requestedRollCycle);
            }
            BlockDescriptor.requireBlockSizeFits(blockSize, rollCycle);
        }
        namedTailers = new NamedTailerSlots(tableStore, directory.toString());
        QueueSettings inForce = requested.withCalendar(calendar).withAsyncBuffer(async.enabled(),
                async.enabled() ? async.size() : requested.asyncBufferSize(),
                async.enabled() ? Path.of(async.directory()) : requested.asyncBufferDirectory());
        if (async.enabled() && requested.asyncMode() && (async.size() != requested.asyncBufferSize()
                || !async.directory().equals(requested.asyncBufferDirectory().toString()))) {
            Log.warning(MappedQueue.class, "queue {0} was created with an async buffer of {1} bytes in {2}; using it "
                    + "instead of the requested {3} bytes in {4}", directory, String.valueOf(async.size()),
                    async.directory(), String.valueOf(requested.asyncBufferSize()), requested.asyncBufferDirectory());
        }
        if (codecsChosen || requested.encryptionKeys() != null || !tableStore.codecs().isPlain()) {
            // Only then: a plain queue opened plainly loads none of the codec classes (StartupClassesTest).
            inForce = inForce.withCodecs(CodecsInForce.of(directory, tableStore.codecs(), requested, codecsChosen));
        } else {
            inForce = inForce.withCodecs(tableStore.codecs());
        }
        if (readOnly && requested.durability() != Durability.PAGE_CACHE) {
            inForce = inForce.withDurability(Durability.PAGE_CACHE);
        }
        settings = inForce;
        files = new CycleFiles(directory, calendar, tableStore, !readOnly, blockSize, settings.indexSpacing(),
                settings.reserveStep(), permissions, diskSpace, settings.storeFileListener(), filesystem,
                settings.codecs().isPlain() ? null : FileCodecs.forNewFiles(settings.codecs()));
        if (!readOnly && !repairing) {
            files.requireValidCycleRange();
        }
        extent = new QueueExtent(files);
        Retention retention = new Retention(settings.retainCycles(), settings.retainFor().toMillis(),
                settings.retentionKeepsUnread(), settings.storeFileListener());
        cycleClock = CycleClock.of(settings.clock(), calendar, directory, !readOnly);
        context = new QueueContext(queue, files, tableStore, namedTailers, rollCycle, settings.clock(), cycleClock,
                settings.writeLockCheckInterval().toNanos(), settings.writeLockTimeout().toNanos(),
                settings.durability() == Durability.SYNC, retention,
                resources, appended, settings.codecs());
        if (async.enabled()) {
            front = asyncFronts.open(context, permissions, extent::lastIndex, !readOnly, settings.asyncDrain());
        }
    }

    /** Closes what was opened, newest first; what fails meanwhile is added to {@code failure} as suppressed. */
    private void closeOpened(Throwable failure) {
        try {
            if (extent != null) {
                extent.close();
            }
            if (files != null) {
                files.close();
            }
        } catch (RuntimeException closing) {
            failure.addSuppressed(closing);
        }
        if (tableStore != null) {
            try {
                tableStore.release(!readOnly);
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
        }
    }

    /** Names an async queue's buffer file; never 0, which stands for none. */
    private static long newQueueId() {
        long id = ThreadLocalRandom.current().nextLong() ^ System.nanoTime();
        return id == 0 ? 1 : id;
    }
}
