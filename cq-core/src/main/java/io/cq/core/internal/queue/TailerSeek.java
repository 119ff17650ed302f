package io.cq.core.internal.queue;

import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.TailerDirection;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.table.TableStore;

/**
 * A tailer's seeks: entering and changing cycles, reading backward through the index, and the moves (toStart, toEnd,
 * moveToIndex, a change of direction, a named tailer's resume), working on the {@link StoreTailer}'s package-private
 * fields and methods. Reading forward within a cycle stays in the tailer; these run at a cycle's edge or on a move.
 */
final class TailerSeek {
    private static final long NO_CYCLE = TableStore.NO_CYCLE;

    private TailerSeek() {
    }

    /**
     * The index of the last excerpt of the cycles before {@code current}, or -1 when they hold none. Read at a cycle's
     * start when going backward, not per excerpt.
     */
    static long lastIndexBefore(StoreTailer t, long current) {
        for (long previous = t.queue.files().previousCycle(current); previous != NO_CYCLE;
             previous = t.queue.files().previousCycle(previous)) {
            CycleFile candidate = t.queue.files().acquire(previous);
            if (candidate == null) {
                continue;
            }
            try {
                long count = candidate.excerptCount(t.lookup);
                if (count > 0) {
                    return t.queue.rollCycle().toIndex(previous, count - 1);
                }
            } finally {
                t.queue.files().release(candidate);
            }
        }
        return -1;
    }

    static boolean enterFirstCycle(StoreTailer t) {
        long max = t.queue.tableStore().maxCycle();
        if (max == NO_CYCLE || max < t.startCycle) {
            return false;
        }
        long first = t.queue.files().nextCycle(t.startCycle == Long.MIN_VALUE ? Long.MIN_VALUE : t.startCycle - 1);
        return first != NO_CYCLE && switchTo(t, first) && atStartOfCycle(t);
    }

    static boolean moveToNextCycle(StoreTailer t) {
        long next = t.queue.files().nextCycle(t.cycle);
        return next != NO_CYCLE && switchTo(t, next) && atStartOfCycle(t);
    }

    private static boolean atStartOfCycle(StoreTailer t) {
        moveWithinCycle(t, t.file.dataStart(), 0);
        return true;
    }

    /** Makes {@code target} the current cycle file; false (nothing changed) when it has no file. */
    private static boolean switchTo(StoreTailer t, long target) {
        if (t.file != null && target == t.cycle) {
            return true;
        }
        CycleFile next = t.queue.files().acquire(target);
        if (next == null) {
            return false;
        }
        t.queue.files().release(t.file);
        t.file = next;
        t.framed = next.codecs() != null;
        t.cycle = target;
        t.chunk = null;
        t.chunkStart = 0;
        t.chunkEnd = Long.MIN_VALUE;
        return true;
    }

    private static void leaveCycles(StoreTailer t, long waitForCycle) {
        t.queue.files().release(t.file);
        t.file = null;
        t.cycle = NO_CYCLE;
        t.chunk = null;
        t.chunkEnd = Long.MIN_VALUE;
        t.startCycle = waitForCycle;
    }

    // ---- backward ---------------------------------------------------------------------------------------

    static ReadContext readBackward(StoreTailer t) {
        while (true) {
            if (t.file == null) {
                return t.absent();
            }
            if (t.sequence < 0) {
                long previous = t.queue.files().previousCycle(t.cycle);
                if (previous == NO_CYCLE || !switchTo(t, previous)) {
                    return t.absent();
                }
                t.sequence = t.file.excerptCount(t.scratch) - 1;
                continue;
            }
            CycleFile.Found found = t.file.locate(t.sequence, t.scratch);
            if (found == CycleFile.Found.EXCERPT) {
                t.position = t.scratch.position();
                if (!TailerChunks.mapChunkFor(t, t.position)) {
                    return t.absent();
                }
                return t.present(Memory.getIntAcquire(t.chunk, t.position - t.chunkStart));
            }
            // Past the end: the last excerpt is the next one going backward.
            long count = t.scratch.sequence();
            t.sequence = count - 1;
            if (count == 0) {
                continue;
            }
        }
    }

    // ---- positioning ------------------------------------------------------------------------------------

    static void resume(StoreTailer t, long nextIndex) {
        if (nextIndex < 0) {
            toStart(t);
            return;
        }
        long target = t.queue.rollCycle().toCycle(nextIndex);
        long targetSequence = t.queue.rollCycle().toSequenceNumber(nextIndex);
        if (!switchTo(t, target)) {
            leaveCycles(t, target);
            return;
        }
        t.file.locate(targetSequence, t.scratch);
        moveWithinCycle(t, t.scratch.position(), t.scratch.sequence());
    }

    /** Jumps within the current file; the chunk is looked up again, since the jump may go backward. */
    private static void moveWithinCycle(StoreTailer t, long newPosition, long newSequence) {
        t.position = newPosition;
        t.sequence = newSequence;
        t.chunk = null;
        t.chunkEnd = Long.MIN_VALUE;
    }

    /**
     * A move while a read context is open: the excerpt in hand is not committed when the context closes, so the
     * tailer stays where it was moved, as in {@link StoreTailer#poll}. Committing would step from the new place by the
     * length of the excerpt read at the old one. (A change of direction keeps the commit, which steps past the excerpt
     * in hand in the new direction.)
     */
    private static void movedWhileReading(StoreTailer t) {
        if (t.context.open) {
            t.context.rollback = true;
        }
    }

    static ExcerptTailer toStart(StoreTailer t) {
        t.ensureOpen();
        movedWhileReading(t);
        long first = t.queue.files().firstCycle();
        if (first == NO_CYCLE || !switchTo(t, first)) {
            leaveCycles(t, Long.MIN_VALUE);
        } else {
            atStartOfCycle(t);
        }
        if (t.direction == TailerDirection.FORWARD) {
            t.persist(-1);
        }
        return t;
    }

    static ExcerptTailer toEnd(StoreTailer t) {
        t.ensureOpen();
        movedWhileReading(t);
        long last = t.queue.files().lastCycle();
        if (last == NO_CYCLE || !switchTo(t, last)) {
            leaveCycles(t, Long.MIN_VALUE);
            return t;
        }
        t.file.locateEnd(t.scratch);
        moveWithinCycle(t, t.scratch.position(),
                t.direction == TailerDirection.FORWARD ? t.scratch.sequence() : t.scratch.sequence() - 1);
        if (t.direction == TailerDirection.FORWARD) {
            t.persist(t.queue.rollCycle().toIndex(t.cycle, t.sequence));
        }
        return t;
    }

    static boolean moveToIndex(StoreTailer t, long index) {
        t.ensureOpen();
        if (index < 0) {
            return false;
        }
        long target = t.queue.rollCycle().toCycle(index);
        long targetSequence = t.queue.rollCycle().toSequenceNumber(index);
        CycleFile candidate = target == t.cycle && t.file != null ? t.file : t.queue.files().acquire(target);
        if (candidate == null) {
            return false;
        }
        if (candidate.locate(targetSequence, t.scratch) != CycleFile.Found.EXCERPT) {
            if (candidate != t.file) {
                t.queue.files().release(candidate);
            }
            return false;
        }
        movedWhileReading(t);
        if (candidate != t.file) {
            t.queue.files().release(t.file);
            t.file = candidate;
            t.framed = candidate.codecs() != null;
            t.cycle = target;
        }
        moveWithinCycle(t, t.scratch.position(), targetSequence);
        t.persist(index);
        return true;
    }

    static ExcerptTailer direction(StoreTailer t, TailerDirection newDirection) {
        t.ensureOpen();
        if (newDirection == TailerDirection.FORWARD && t.direction == TailerDirection.BACKWARD && t.file != null) {
            // Going backward only the sequence is kept; find the record it stands for.
            long from = Math.max(t.sequence, 0);
            t.file.locate(from, t.scratch);
            moveWithinCycle(t, t.scratch.position(), t.scratch.sequence());
        }
        t.direction = newDirection;
        return t;
    }

    static long index(StoreTailer t) {
        if (t.file == null) {
            long min = t.queue.tableStore().minCycle();
            return min == NO_CYCLE ? 0 : t.queue.rollCycle().toIndex(Math.max(min, t.startCycle), 0);
        }
        if (t.sequence < 0) {
            // Going backward past a cycle's first excerpt: the last excerpt of an earlier cycle is next, when there is
            // one; toIndex(cycle, 0) - 1 would name an excerpt of the previous cycle that does not exist.
            long before = lastIndexBefore(t, t.cycle);
            return before >= 0 ? before : t.queue.rollCycle().toIndex(t.cycle, 0) - 1;
        }
        return t.queue.rollCycle().toIndex(t.cycle, t.sequence);
    }
}
