package io.cq.integration;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.NamedTailerPosition;
import io.cq.core.StartPosition;

/**
 * What the reading adapters share about their named tailer: the id check at start-up and the monitoring reads
 * of {@link QueueAdapterInfo}, which go through the queue's table store and so are safe from any thread (a
 * tailer itself belongs to its polling thread).
 */
public final class NamedTailers {
    private NamedTailers() {
    }

    /**
     * Checks that {@code id} can name a tailer of {@code queue}.
     *
     * @throws IllegalArgumentException naming the adapter and the rule, when it cannot
     */
    public static String requireValidName(MappedQueue queue, String id, String adapter) {
        try {
            queue.namedTailer(id);
            return id;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(adapter + " '" + id + "' reads queue " + queue.path() + " with a named "
                    + "tailer of the same name, so its id must be 1 to 64 letters, digits, '.', '_' or '-', starting "
                    + "with a letter or digit: give it one with .id(\"orders-in\") (.adapterId for message sources)",
                    e);
        }
    }

    /**
     * Moves a freshly created named tailer to where its adapter starts.
     *
     * @throws IllegalStateException when the queue holds no excerpt at a requested index
     */
    public static void moveToStart(ExcerptTailer tailer, StartPosition start) {
        if (!tailer.moveTo(start) && start.kind() == StartPosition.Kind.INDEX) {
            MappedQueue queue = tailer.queue();
            throw new IllegalStateException("start index 0x" + Long.toHexString(start.index()) + " is not in queue "
                    + queue.path() + " (first index 0x" + Long.toHexString(queue.firstIndex()) + ", last 0x"
                    + Long.toHexString(queue.lastIndex()) + ")");
        }
    }

    /** The persisted next index of the tailer, -1 for the start (or a tailer never created). */
    public static long nextIndex(MappedQueue queue, String name) {
        if (queue.isClosed()) {
            return -1;
        }
        return queue.namedTailer(name).map(NamedTailerPosition::nextIndex).orElse(-1L);
    }

    /** Excerpts at or after the tailer's persisted next index. */
    public static long lag(MappedQueue queue, String name) {
        if (queue.isClosed()) {
            return 0;
        }
        long last = queue.lastIndex();
        if (last < 0) {
            return 0;
        }
        long next = nextIndex(queue, name);
        long from = next < 0 ? queue.firstIndex() : next;
        return queue.countExcerpts(from, last + 1);
    }
}
