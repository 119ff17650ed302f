package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.MappedQueue;
import io.cq.core.QueueException;
import io.cq.core.QueueRepair;
import io.cq.core.WriterProcess;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFileMarks;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.file.CycleRepair;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.lock.WriteLockWord;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a queue does to its files under the write lock besides appending: a repair (only with no other writer), and
 * the last writer's shrink of the newest cycle on close. Not on the path of an append.
 */
final class WriteLockedMaintenance {
    private final QueueContext context;
    private final CycleFiles files;
    private final TableStore tableStore;
    private final Path directory;

    WriteLockedMaintenance(QueueContext context) {
        this.context = context;
        this.files = context.files();
        this.tableStore = context.tableStore();
        this.directory = files.directory();
    }

    /**
     * Cuts each cycle at its first damaged record, sets aside files whose header is damaged, rebuilds wrong indexes
     * and resets a cycle range no writer would accept (docs/file-format.md); refused while another process writes.
     */
    QueueRepair repair() {
        requireNoOtherWriter();
        List<QueueRepair.Skipped> skipped = new ArrayList<>();
        List<QueueRepair.SetAside> setAside = new ArrayList<>();
        List<QueueRepair.IndexRebuilt> rebuilt = new ArrayList<>();
        QueueRepair.CycleRangeReset reset = null;
        try (WriteLock lock = context.newWriteLock()) {
            lock.acquire();
            try {
                long currentCycle = tableStore.calendar().cycleAt(context.clock().millis());
                Long storedNewest = files.resetInvalidCycleRange(currentCycle);
                long newest = tableStore.maxCycle();
                // After a reset the newest file may be of a cycle the clock has left: finished, end mark and all.
                boolean newestOver = storedNewest != null && newest < currentCycle;
                for (long cycle : files.cycles()) {
                    if (cycle > newest) {
                        continue; // created early by a pretoucher: nothing written yet
                    }
                    CycleFile file;
                    try {
                        file = files.acquire(cycle);
                    } catch (CorruptQueueException e) {
                        // Opening checks the file's own header: damaged, there is no first record to cut at, so
                        // out of the queue it goes. A file of a newer format is no damage: the repair stops there.
                        if (!e.file().equals(files.pathOf(cycle)) || CycleFiles.isNewerFormat(e)) {
                            throw e;
                        }
                        setAside.add(new QueueRepair.SetAside(e.file(), files.setAside(cycle), e.problem()));
                        continue;
                    }
                    if (file == null) {
                        continue;
                    }
                    try {
                        CycleRepair.Outcome outcome = CycleRepair.repair(file, cycle < newest || newestOver);
                        if (outcome.skipped() != null) {
                            skipped.add(outcome.skipped());
                        }
                        if (outcome.indexRebuilt() != null) {
                            rebuilt.add(outcome.indexRebuilt());
                        }
                    } finally {
                        files.release(file);
                    }
                }
                if (!setAside.isEmpty()) {
                    // The newest file may have been one of them.
                    Long before = files.resetInvalidCycleRange(currentCycle);
                    storedNewest = storedNewest != null ? storedNewest : before;
                }
                if (storedNewest != null) {
                    reset = new QueueRepair.CycleRangeReset(tableStore.path(), storedNewest, tableStore.maxCycle());
                }
            } finally {
                lock.release();
            }
        }
        // Logged after the lock is released: a stalled log must not hold up the queue's writers.
        for (QueueRepair.Skipped range : skipped) {
            Log.warning(MappedQueue.class, "repair of {0}: skipped {1} excerpts from position {2} to {3} of {4}",
                    directory, String.valueOf(range.excerptsSkipped()), String.valueOf(range.from()),
                    String.valueOf(range.to()), range.file());
        }
        for (QueueRepair.SetAside file : setAside) {
            Log.warning(MappedQueue.class, "repair of {0}: set {1} aside as {2}, its header being damaged: {3}",
                    directory, file.file(), file.renamed(), file.problem());
        }
        for (QueueRepair.IndexRebuilt index : rebuilt) {
            Log.warning(MappedQueue.class, "repair of {0}: rebuilt the index of {1} from its records (it was wrong "
                    + "from position {2}); no excerpt was lost", directory, index.file(),
                    String.valueOf(index.position()));
        }
        if (reset != null) {
            Log.warning(MappedQueue.class, "repair of {0}: the newest cycle {1} named in {2} had no file; set to {3}",
                    directory, String.valueOf(reset.storedNewest()), reset.tableStore(),
                    String.valueOf(reset.newest()));
        }
        return new QueueRepair(skipped, setAside, reset, rebuilt);
    }

    /**
     * For a repair: refuses while another process has the queue open for writing, whose appends a cut would lose
     * (its next excerpt may already be past the cut).
     *
     * @throws QueueException naming the other writers
     */
    private void requireNoOtherWriter() {
        List<WriterProcess> others = tableStore.processSlots().writers(new WriteLockWord(tableStore).ownerSlot())
                .stream().filter(writer -> writer.processSlot() != tableStore.processSlot()).toList();
        if (!others.isEmpty()) {
            throw new QueueException(directory + " is open for writing in " + others.size() + " other process"
                    + (others.size() == 1 ? "" : "es") + " (" + others.stream()
                    .map(writer -> writer.pid() > 0 ? "pid " + writer.pid() + " on " + writer.host()
                            : "process slot " + writer.processSlot())
                    .collect(Collectors.joining(", "))
                    + "): stop every writer before repairing, since a repair cuts where they may be writing");
        }
    }

    /**
     * The last writer to close gives back what was reserved ahead in the newest cycle (docs/file-format.md,
     * "Reserving and shrinking"). Closing does not fail for it: a file left longer only costs disk space.
     */
    void shrinkNewestIfLastWriter() {
        // Background work on this queue's files (reserving ahead, pretouching) finishes first.
        BackgroundWork.drain();
        if (!tableStore.isOnlyWriter()) {
            return;
        }
        try (WriteLock lock = context.newWriteLock()) {
            lock.acquire();
            try {
                long newest = tableStore.maxCycle();
                if (newest != TableStore.NO_CYCLE && tableStore.isOnlyWriter()) {
                    CycleFileMarks.shrinkNewest(files, newest);
                    tableStore.countShrink();
                }
            } finally {
                lock.release();
            }
        } catch (RuntimeException e) {
            Log.warning(MappedQueue.class, "could not shrink the newest cycle file of " + directory
                    + " on close; it keeps its reserved space", e);
        }
    }
}
