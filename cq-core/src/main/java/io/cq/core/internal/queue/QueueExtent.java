package io.cq.core.internal.queue;

import io.cq.core.RollCycle;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.index.Position;

/**
 * Which excerpts a queue holds: its first and last index and how many lie in a range, found through each cycle's
 * index (a lookup and a few steps per cycle, whatever the queue's size). Keeps the newest cycle file mapped, so
 * that monitoring ({@code lastIndex()}, {@code lag()} every poll) does not map and unmap it on each call when no
 * appender or tailer of this process has it open. Thread-safe.
 */
final class QueueExtent {
    private final CycleFiles files;
    private CycleFile newest;
    private boolean closed;

    QueueExtent(CycleFiles files) {
        this.files = files;
    }

    long firstIndex() {
        Position scratch = new Position();
        for (long cycle = files.firstCycle(); cycle != CycleFiles.NO_CYCLE; cycle = files.nextCycle(cycle)) {
            if (excerptsIn(cycle, scratch) > 0) {
                return files.rollCycle().toIndex(cycle, 0);
            }
        }
        return -1;
    }

    long lastIndex() {
        Position scratch = new Position();
        for (long cycle = files.lastCycle(); cycle != CycleFiles.NO_CYCLE; cycle = files.previousCycle(cycle)) {
            long count = excerptsIn(cycle, scratch);
            if (count > 0) {
                return files.rollCycle().toIndex(cycle, count - 1);
            }
        }
        return -1;
    }

    /** Excerpts whose index is at least {@code fromIndex} and below {@code toIndex}; both checked by the caller. */
    long countExcerpts(long fromIndex, long toIndex) {
        RollCycle roll = files.rollCycle();
        long fromCycle = roll.toCycle(fromIndex);
        long toCycle = roll.toCycle(toIndex);
        Position scratch = new Position();
        long total = 0;
        for (long cycle = files.nextCycle(fromCycle - 1); cycle != CycleFiles.NO_CYCLE && cycle <= toCycle;
             cycle = files.nextCycle(cycle)) {
            long count = excerptsIn(cycle, scratch);
            long low = cycle == fromCycle ? roll.toSequenceNumber(fromIndex) : 0;
            long high = cycle == toCycle ? Math.min(count, roll.toSequenceNumber(toIndex)) : count;
            total += Math.max(0, high - low);
        }
        return total;
    }

    private long excerptsIn(long cycle, Position scratch) {
        CycleFile file = files.acquire(cycle);
        if (file == null) {
            return 0;
        }
        try {
            keepNewestMapped(file);
            return file.excerptCount(scratch);
        } finally {
            files.release(file);
        }
    }

    private synchronized void keepNewestMapped(CycleFile file) {
        if (closed || (newest != null && newest.cycle() >= file.cycle())) {
            return;
        }
        CycleFile kept = files.acquire(file.cycle());
        if (newest != null) {
            files.release(newest);
        }
        newest = kept;
    }

    /** Lets go of the newest file; with the queue's close. */
    synchronized void close() {
        closed = true;
        if (newest != null) {
            files.release(newest);
            newest = null;
        }
    }
}
