package io.cq.core.internal.queue;

import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.memory.BlockReservation;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;

/**
 * Decides when an appender's blocks are reserved and faulted in ahead by the background thread, with native access.
 * A fast appender gets a run-way of several steps reserved and half of it faulted in, so that it meets neither a
 * reservation nor a page fault. A slow one gets two seconds of its pace reserved and faulted in (at least a step) when
 * less than half of that is left: one background wake-up a second at most, since on a machine with few cores each
 * takes the CPU from the application's own spinning threads, and a quiet queue keeps little reserved on disk
 * (docs/operations.md, "Disk usage"). Left to the appender, the first fault in a fresh stretch of the file would zero
 * the page cache's whole read-ahead window on the appender's thread, 20 ms for 8 MiB on a small VM; the background
 * faults in page by page, preemptibly ({@link io.cq.core.internal.os.MemoryAdvice#populateForWrite}). The appender
 * reserves itself only when the background has not (or cannot).
 * The pace is measured every eighth of a step, not per append, and counts only when sustained over half a step.
 *
 * <p>One per appender, used under the write lock; not thread-safe.
 */
final class ReservationPacer {
    /**
     * How long a fast appender's run-way lasts at its pace: it is reserved this far ahead in the background, and
     * faulted in half as far (faulting in is the slow part: an appender that catches up with it must still find its
     * blocks reserved rather than reserve them itself, or wait).
     */
    private static final long RUNWAY_NANOS = 20_000_000;
    /** Bounds of the run-way reserved ahead: a fast appender's disk cost while it writes, given back at the cut. */
    private static final long MIN_AHEAD_BYTES = 4L << 20;
    private static final long MAX_AHEAD_BYTES = 32L << 20;
    /** How long a slower appender's reservation ahead lasts at its pace (at least a step). */
    private static final long SLOW_AHEAD_NANOS = 2_000_000_000L;
    /** Faster than this (bytes per second), an appender gets its blocks reserved and faulted in ahead. */
    private static final long FAST_BYTES_PER_SECOND = 8L << 20;
    /** Faster than this, an appender's run-way is faulted in with the page cache's read-ahead (large folios). */
    private static final long READ_AHEAD_BYTES_PER_SECOND = 256L << 20;

    private final TableStore tableStore;
    /** The position from which the next look is due: the appender's one comparison per append. */
    long nextCheck;
    /** The reserved end for which blocks further ahead were last asked of the background. */
    private long askedAt = -1;
    /** Consecutive looks (an eighth of a step apart) that found the appender fast before it counts as fast. */
    private static final int SUSTAINED_LOOKS = 4;
    private int fastStreak;
    private long pacePosition;
    private long paceNanos;
    /** What the appender faults in itself at a time where the background has not got ahead: 16 pages. */
    private static final long OWN_SLICE = 64 << 10;
    private static final long OWN_MARGIN = OWN_SLICE / 2;
    /** The position from which the appender looks again whether its pages are in ({@link #faultIn}). */
    long faultedTo;
    /** How far the appender faulted pages in itself, in this file. */
    private long ownFaultedEnd;
    /** Fast enough for read-ahead ({@link #READ_AHEAD_BYTES_PER_SECOND}) at the last look. */
    private boolean readAheadPace;

    ReservationPacer(TableStore tableStore) {
        this.tableStore = tableStore;
    }

    /** Takes the measure at {@code p}, and asks the background for blocks ahead as the pace calls for. */
    void consider(CycleFile file, long p, long reserved) {
        // The first look of any appender starts linking the downcalls that reserve ahead (NativeAccess): an appender
        // that writes needs them; the path to a new process's first excerpt does not.
        NativeAccess.warmUpInBackground();
        long step = file.mapped().blocks().reserveStep();
        long now = System.nanoTime();
        // No pace yet in a file just entered (positions start again): the first look only takes the measure.
        long pace = pacePosition > 0 && p > pacePosition && now > paceNanos
                ? (p - pacePosition) * 1_000_000_000L / (now - paceNanos) : 0;
        // Fast only when sustained: a sender catching up after a stall writes a burst, and background work asked for
        // it would take a core from the application's spinning threads just when they are late already.
        fastStreak = pace > FAST_BYTES_PER_SECOND ? fastStreak + 1 : 0;
        boolean fast = fastStreak >= SUSTAINED_LOOKS;
        readAheadPace = fast && pace > READ_AHEAD_BYTES_PER_SECOND;
        pacePosition = p;
        paceNanos = now;
        nextCheck = p + step / 8;
        if (askedAt == reserved) {
            return;
        }
        long written = file.cycle();
        if (!fast) {
            // Before a slow appender needs its next blocks, the background reserves and faults them in: a
            // reservation takes microseconds, but it may wait for the file system's journal commit (milliseconds
            // every few seconds on ext4), which must not happen on the appender's thread under the write lock. An
            // appender that writes steadily gets two seconds of its pace reserved at a time (up to 32 MiB), so that
            // it is reserved for about once a second rather than every half step: each reservation is a journal
            // transaction, and each wake-up ran the risk of a millisecond stall for the spinning threads of a small
            // machine (docs/operations.md, "Disk usage"). Faulting in rides on the same wake-up.
            long ahead = Math.max(step, Math.min(pace / 1_000_000 * (SLOW_AHEAD_NANOS / 1_000), MAX_AHEAD_BYTES)
                    / step * step);
            if (reserved - p < ahead / 2) {
                askedAt = reserved;
                file.mapped().blocks().reserveAhead(p, p + ahead, p + ahead, false,
                        () -> tableStore.maxCycle() <= written);
            }
            return;
        }
        long ahead = Math.max(2 * step, Math.clamp(pace / 1_000_000 * (RUNWAY_NANOS / 1_000), MIN_AHEAD_BYTES,
                MAX_AHEAD_BYTES) / step * step);
        // Asked again once an eighth of the run-way is used: one background request per eighth, not per append.
        if (reserved - p < ahead - ahead / 8) {
            askedAt = reserved;
            // Page by page (no read-ahead) keeps the background thread preemptible; past a few hundred MB/s the
            // kernel's work per page costs an appender more than the stalls do (MemoryAdvice.populateForWrite).
            file.mapped().blocks().reserveAhead(p, p + ahead, p + ahead / 2, pace > READ_AHEAD_BYTES_PER_SECOND,
                    () -> tableStore.maxCycle() <= written);
        }
    }

    /**
     * Where the background has not faulted in the pages at {@code p} (a new file's first stretch, before the first
     * look; a background thread that fell behind or cannot), the appender faults in the next 16 pages itself, page by
     * page: about 80 µs. Left to its stores, the first of them would zero the page cache's whole read-ahead window
     * (8 MiB on a virtio disk) in one go, about 18 ms at 100K msgs/s every 1.9 s on the project's machine
     * (docs/performance.md). {@code chunk} is the appender's mapping of the chunk at {@code chunkStart}.
     */
    void faultIn(CycleFile file, MemorySegment chunk, long chunkStart, long chunkEnd, long p) {
        if (readAheadPace) {
            // Hundreds of MB/s: the page cache's read-ahead, large folios, costs such an appender less than page by
            // page does (consider); the background faults in with it.
            faultedTo = chunkEnd;
            return;
        }
        BlockReservation blocks = file.mapped().blocks();
        long populated = Math.max(blocks.populatedEnd(), ownFaultedEnd);
        if (populated - OWN_MARGIN > p) {
            faultedTo = populated - OWN_MARGIN;
            return;
        }
        long page = p & -BlockDescriptor.PAGE;
        long from = Math.max(page, populated);
        long target = Math.min(from + OWN_SLICE, chunkEnd);
        long got = blocks.populateOwn(chunk, chunkStart, from, target);
        if (got > from) {
            ownFaultedEnd = got;
            // Looked at again half a slice before the end: a record and the free mark after it stay on pages in.
            faultedTo = got < chunkEnd ? Math.max(got - OWN_MARGIN, p + 1) : chunkEnd;
        } else if (NativeAccess.isReady() && !NativeAccess.canReserveBlocksNow()) {
            // No native access in this JVM: the write-lock holder reserves by writing zeros through the channel,
            // which puts the pages in the page cache, so its stores meet no read-ahead. Never looked at again here.
            faultedTo = Long.MAX_VALUE;
        } else {
            // Not reserved yet, or still linking: the next look comes a page later (the stores fault this one).
            faultedTo = Math.min(Math.max(target, p + 1), page + BlockDescriptor.PAGE);
        }
    }

    /** Positions start again in a new file: the pace is measured afresh there. */
    void enteredNewFile() {
        faultedTo = 0;
        ownFaultedEnd = 0;
        readAheadPace = false;
        nextCheck = 0;
        pacePosition = 0;
        fastStreak = 0;
    }
}
