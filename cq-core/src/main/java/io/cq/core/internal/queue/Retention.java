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

/**
 * Deletes cycle files that fall out of the retention window: older than the last {@code cycles} cycles and/or
 * ended more than {@code durationMillis} ago. Unless told otherwise, a file that still holds excerpts some named
 * tailer has not read is kept. Runs under the write lock when an appender rolls to a new cycle.
 */
public record Retention(int cycles, long durationMillis, boolean keepUnreadByNamedTailers, StoreFileListener listener) {
    public static final Retention KEEP_ALL = new Retention(0, 0, true, new StoreFileListener() {
    });

    public boolean keepsAll() {
        return cycles <= 0 && durationMillis <= 0;
    }

    void apply(CycleFiles files, TableStore tableStore, NamedTailerSlots namedTailers, long currentCycle,
               long nowMillis) {
        if (keepsAll()) {
            return;
        }
        RollCycle roll = files.rollCycle();
        long keepFrom = Long.MIN_VALUE;
        if (cycles > 0) {
            keepFrom = currentCycle - cycles + 1;
        }
        if (durationMillis > 0) {
            // A cycle is kept while any of it lies inside the window: it ends after now - duration.
            keepFrom = Math.max(keepFrom, roll.cycleAt(nowMillis - durationMillis));
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
                    Log.info(Retention.class, "retention deleted {0}", path);
                    listener.onDeleted(cycle, path);
                }
            } catch (IOException e) {
                Log.warning(Retention.class, "retention cannot delete " + path, e);
            }
        }
        if (deleted) {
            tableStore.publishMinCycle(files.cycles().isEmpty() ? TableStore.NO_CYCLE : files.cycles().first());
        }
    }
}
