package io.cq.integration.inbound;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.integration.NamedTailers;

/**
 * Where a reading adapter starts. The default, {@link #resumeOrStart()}, continues where the adapter's named
 * tailer stopped and reads the whole queue the first time; {@link #resumeOrEnd()} reads only new excerpts the
 * first time (like Kafka's {@code auto.offset.reset}). {@link #start()}, {@link #end()} and {@link #index(long)}
 * move the tailer on every start, discarding the stored position. Immutable.
 */
public final class StartPosition {
    private static final StartPosition RESUME_OR_START = new StartPosition(Kind.RESUME_OR_START, -1);
    private static final StartPosition RESUME_OR_END = new StartPosition(Kind.RESUME_OR_END, -1);
    private static final StartPosition START = new StartPosition(Kind.START, -1);
    private static final StartPosition END = new StartPosition(Kind.END, -1);

    private enum Kind { RESUME_OR_START, RESUME_OR_END, START, END, INDEX }

    private final Kind kind;
    private final long index;

    private StartPosition(Kind kind, long index) {
        this.kind = kind;
        this.index = index;
    }

    /** Resume the named tailer; the first time, read from the start of the queue. */
    public static StartPosition resumeOrStart() {
        return RESUME_OR_START;
    }

    /** Resume the named tailer; the first time, read only excerpts appended from now on. */
    public static StartPosition resumeOrEnd() {
        return RESUME_OR_END;
    }

    /** Read from the start of the queue on every start. */
    public static StartPosition start() {
        return START;
    }

    /** Read only excerpts appended after each start. */
    public static StartPosition end() {
        return END;
    }

    /**
     * Read from the excerpt with this index on every start.
     *
     * @throws IllegalArgumentException for a negative index
     */
    public static StartPosition index(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index=" + index + " must not be negative");
        }
        return new StartPosition(Kind.INDEX, index);
    }

    /**
     * Moves a freshly created named tailer.
     *
     * @throws IllegalStateException when the queue holds no excerpt with the requested index
     */
    void apply(ExcerptTailer tailer) {
        MappedQueue queue = tailer.queue();
        boolean stored = NamedTailers.nextIndex(queue, tailer.name()) >= 0;
        switch (kind) {
            case RESUME_OR_START -> {
                if (!stored) {
                    tailer.toStart();
                }
            }
            case RESUME_OR_END -> {
                if (!stored) {
                    tailer.toEnd();
                }
            }
            case START -> tailer.toStart();
            case END -> tailer.toEnd();
            case INDEX -> {
                if (!tailer.moveToIndex(index)) {
                    throw new IllegalStateException("start index 0x" + Long.toHexString(index) + " is not in queue "
                            + queue.path() + " (first index 0x" + Long.toHexString(queue.firstIndex()) + ", last 0x"
                            + Long.toHexString(queue.lastIndex()) + ")");
                }
            }
        }
    }

    @Override
    public String toString() {
        return kind == Kind.INDEX ? "index(0x" + Long.toHexString(index) + ")" : kind.name().toLowerCase();
    }
}
