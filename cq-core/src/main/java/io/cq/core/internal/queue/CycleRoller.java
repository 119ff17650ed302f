package io.cq.core.internal.queue;

import io.cq.core.QueueException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFileMarks;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * An appender's way into a new cycle, under the write lock: creates its file, marks the previous newest cycle
 * finished, publishes the new one and lets retention delete what it no longer keeps (docs/file-format.md,
 * "Rolling"). The appender keeps its own position; this only hands it the file.
 */
final class CycleRoller {
    private final QueueContext queue;
    /** The appender's list of files retention deleted, to log and announce once the lock is released. */
    private final List<Retention.Deletion> retired;

    CycleRoller(QueueContext queue, List<Retention.Deletion> retired) {
        this.queue = queue;
        this.retired = retired;
    }

    /** The cycle the clock gives, or a later one another appender has started. */
    long targetCycle(long now) {
        long target = Math.max(queue.calendar().cycleAt(now), queue.tableStore().maxCycle());
        if (target > queue.rollCycle().lastCycle() || target < 0) {
            throw new QueueException("the clock (" + Instant.ofEpochMilli(now) + ") is outside what "
                    + queue.rollCycle() + " can index (cycles 0 to " + queue.rollCycle().lastCycle() + ", up to "
                    + Instant.ofEpochMilli(queue.calendar().cycleStartMillis(queue.rollCycle().lastCycle()))
                    + "); nothing was written");
        }
        return target;
    }

    /**
     * Acquires {@code target}'s file, created when missing, and makes it the newest cycle; {@code current} (null
     * before the first roll) stays acquired, for the caller to release.
     */
    CycleFile enter(CycleFile current, long target, long now) {
        queue.tableStore().requireStillInPlace();
        if (current != null) {
            // Nothing more is written to the file being left, though it counts as written until the next is
            // published: reservations ahead in it (queued on the background thread, or a pretoucher's) would
            // only take room, on a full disk the room retention makes for the next file.
            current.mapped().blocks().stopReservingAhead();
        }
        CycleFile next = acquireOrCreateMakingRoom(target, now);
        try {
            // Before anything maps (and so lengthens) the file: a file cut short is refused, not padded.
            next.checkTailForAppending();
            long previousNewest = queue.tableStore().maxCycle();
            List<Path> finished = previousNewest < target
                    ? CycleFileMarks.finishBefore(queue.files(), previousNewest, target) : List.of();
            queue.tableStore().publishCycle(target);
            if (!finished.isEmpty()) {
                // Not on a new queue's first roll, which finishes nothing: that loads nothing for it.
                UnusedIndexRelease.submit(queue, finished);
            }
            retired.addAll(queue.retention().apply(queue.files(), queue.tableStore(), queue.namedTailers(),
                    target, now));
        } catch (RuntimeException | Error e) {
            queue.files().release(next);
            throw e;
        }
        return next;
    }

    /**
     * Creates the new cycle's file; on a full disk, first lets retention delete what it would delete at this roll
     * anyway, which may make the room, and tries once more.
     */
    private CycleFile acquireOrCreateMakingRoom(long target, long now) {
        try {
            return queue.files().acquireOrCreate(target, now);
        } catch (UncheckedIOException e) {
            List<Retention.Deletion> freed = queue.retention().apply(queue.files(), queue.tableStore(),
                    queue.namedTailers(), target, now);
            retired.addAll(freed);
            if (freed.stream().noneMatch(deletion -> deletion.failure() == null)) {
                throw e;
            }
            return queue.files().acquireOrCreate(target, now);
        }
    }
}
