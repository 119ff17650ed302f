package io.cq.core.internal.queue;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;

/** Moves a tailer to a {@link StartPosition} ({@link ExcerptTailer#moveTo(StartPosition)}). */
public final class StartPositions {
    private StartPositions() {
    }

    public static boolean apply(ExcerptTailer tailer, MappedQueue queue, StartPosition start) {
        if (start.resumes() && tailer.name() != null && hasCommitted(queue, tailer.name())) {
            return true;
        }
        boolean found = switch (start.kind()) {
            case START -> {
                tailer.toStart();
                yield true;
            }
            case END -> {
                tailer.toEnd();
                yield true;
            }
            case INDEX -> tailer.moveToIndex(start.index());
            case TIME -> moveToTime(tailer, queue, start.time().toEpochMilli());
        };
        if (!found) {
            tailer.toEnd();
        }
        return found;
    }

    /** -1 is also what a named tailer that was created but never committed leaves: it is not a position. */
    private static boolean hasCommitted(MappedQueue queue, String name) {
        return queue.namedTailer(name).map(position -> position.nextIndex() >= 0).orElse(false);
    }

    private static boolean moveToTime(ExcerptTailer tailer, MappedQueue queue, long epochMillis) {
        long cycle = queue.cycleCalendar().cycleAt(epochMillis);
        for (long candidate : queue.cycles()) {
            if (candidate >= cycle) {
                return tailer.moveToIndex(queue.rollCycle().toIndex(candidate, 0));
            }
        }
        return false;
    }
}
