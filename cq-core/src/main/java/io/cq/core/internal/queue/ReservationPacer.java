package io.cq.core.internal.queue;

import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.table.TableStore;

/**
 * Decides when an appender's blocks are reserved and faulted in ahead by the background thread. With native
 * access, a fast appender gets several steps at a time, so that it meets neither a reservation nor a page fault. A
 * slow one reserves a step at a time itself (a few microseconds, once per step) and takes its few page faults:
 * waking the background thread for it would, on a machine with few cores, take the CPU from the application's
 * own spinning threads for whole scheduler slices, and a quiet queue keeps little reserved on disk
 * (docs/operations.md, "Disk usage"). The pace is measured every eighth of a step, not per append.
 *
 * <p>One per appender, used under the write lock; not thread-safe.
 */
final class ReservationPacer {
    /** Steps reserved ahead, in the background, of an appender fast enough for page faults to matter. */
    private static final int AHEAD_STEPS = 8;
    /** Faster than this (bytes per second), an appender gets its blocks reserved and faulted in ahead. */
    private static final long FAST_BYTES_PER_SECOND = 8L << 20;

    private final TableStore tableStore;
    /** The position from which the next look is due: the appender's one comparison per append. */
    long nextCheck;
    /** The reserved end for which blocks further ahead were last asked of the background. */
    private long askedAt = -1;
    private long pacePosition;
    private long paceNanos;

    ReservationPacer(TableStore tableStore) {
        this.tableStore = tableStore;
    }

    /** Takes the measure at {@code p}, and asks the background for blocks ahead when the appender is fast. */
    void consider(CycleFile file, long p, long reserved) {
        long step = file.mapped().reserveStep();
        long now = System.nanoTime();
        // No pace yet in a file just entered (positions start again): the first look only takes the measure.
        boolean fast = pacePosition > 0 && p > pacePosition && now > paceNanos
                && (p - pacePosition) * 1_000_000_000L / (now - paceNanos) > FAST_BYTES_PER_SECOND;
        pacePosition = p;
        paceNanos = now;
        nextCheck = p + step / 8;
        if (askedAt == reserved) {
            return;
        }
        if (fast && reserved - p < (AHEAD_STEPS - 2) * step) {
            askedAt = reserved;
            long written = file.cycle();
            file.mapped().reserveAhead(p + AHEAD_STEPS * step, true, () -> tableStore.maxCycle() <= written);
        }
    }

    /** Positions start again in a new file: the pace is measured afresh there. */
    void enteredNewFile() {
        nextCheck = 0;
        pacePosition = 0;
    }
}
