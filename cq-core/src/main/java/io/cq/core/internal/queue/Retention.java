package io.cq.core.internal.queue;

import io.cq.core.NamedTailerPosition;
import io.cq.core.RollCycle;
import io.cq.core.StoreFileListener;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.named.NamedTailerSlots;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes cycle files that fall out of the retention window: older than the last {@code cycles} cycles and/or
 * ended more than {@code durationMillis} ago. Unless told otherwise, a file that still holds excerpts some named
 * tailer has not read is kept. Runs under the write lock when an appender rolls to a new cycle; what it deleted is
 * logged and told to the listener by {@link #announce(List)} after the lock is released, since neither may stall
 * the queue's writers.
 */
public record Retention(int cycles, long durationMillis, boolean keepUnreadByNamedTailers, StoreFileListener listener) {
    /** A file retention deleted, or failed to delete (with the error). */
    record Deletion(long cycle, Path path, IOException failure) {
    }

    public boolean keepsAll() {
        return cycles <= 0 && durationMillis <= 0;
    }

    List<Deletion> apply(CycleFiles files, TableStore tableStore, NamedTailerSlots namedTailers, long currentCycle,
                         long nowMillis) {
        if (keepsAll()) {
            return List.of();
        }
        List<Deletion> deletions = new ArrayList<>();
        RollCycle roll = files.rollCycle();
        long keepFrom = Long.MIN_VALUE;
        if (cycles > 0) {
            keepFrom = currentCycle - cycles + 1;
        }
        if (durationMillis > 0) {
            // A cycle is kept while any of it lies inside the window: it ends after now - duration.
            keepFrom = Math.max(keepFrom, files.calendar().cycleAt(nowMillis - durationMillis));
        }
        if (keepUnreadByNamedTailers) {
            for (NamedTailerPosition tailer : namedTailers.positions()) {
                long unreadFrom = tailer.nextIndex() < 0 ? Long.MIN_VALUE : roll.toCycle(tailer.nextIndex());
                keepFrom = Math.min(keepFrom, unreadFrom);
            }
        }
        boolean deleted = false;
        for (long cycle : files.cycles()) {
            if (cycle >= keepFrom || cycle >= currentCycle) {
                break;
            }
            Path path = files.pathOf(cycle);
            try {
                if (Files.deleteIfExists(path)) {
                    deleted = true;
                    deletions.add(new Deletion(cycle, path, null));
                }
            } catch (IOException e) {
                deletions.add(new Deletion(cycle, path, e));
            }
        }
        if (deleted) {
            tableStore.publishMinCycle(files.cycles().isEmpty() ? TableStore.NO_CYCLE : files.cycles().first());
        }
        return deletions;
    }

    /** Logs what {@link #apply} did and tells the listener: after the write lock is released. */
    void announce(List<Deletion> deletions) {
        for (Deletion deletion : deletions) {
            if (deletion.failure() == null) {
                Log.info(Retention.class, "retention deleted {0}", deletion.path());
                listener.onDeleted(deletion.cycle(), deletion.path());
            } else {
                Log.warning(Retention.class, "retention cannot delete " + deletion.path(), deletion.failure());
            }
        }
    }
}
