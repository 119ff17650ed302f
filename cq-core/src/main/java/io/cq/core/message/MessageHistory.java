package io.cq.core.message;

/**
 * The route and timings of the message being handled on this thread: which queues it passed through (each
 * writer's {@code sourceId} and the excerpt's index there) and a {@link System#nanoTime()} for every write and
 * every read along the way, oldest first. With it a chain of services can report per-hop latency.
 *
 * <p>A method reader built with history enabled fills the current thread's history from each excerpt and adds
 * the time of its own read before calling the handler, and clears it afterwards. A method writer with a
 * {@code sourceId}, called on that thread (typically from the handler), writes the history on with its own
 * source and the time of its write. nanoTime values compare only within one machine.
 *
 * <p>One instance per thread, reused: read it inside the handler, copy what you keep. Fixed capacity of
 * {@value #MAX_ENTRIES} sources and timings; recording allocates nothing.
 */
public final class MessageHistory {
    /** The most sources and the most timings a history holds (one byte each in the layout). */
    public static final int MAX_ENTRIES = 255;

    private static final ThreadLocal<MessageHistory> CURRENT = ThreadLocal.withInitial(MessageHistory::new);

    private final int[] sourceIds = new int[MAX_ENTRIES];
    private final long[] sourceIndexes = new long[MAX_ENTRIES];
    private final long[] timings = new long[MAX_ENTRIES];
    private int sourceCount;
    private int timingCount;

    private MessageHistory() {
    }

    /** This thread's history: that of the message being handled, or empty outside a handler. */
    public static MessageHistory current() {
        return CURRENT.get();
    }

    public int sourceCount() {
        return sourceCount;
    }

    /** The {@code sourceId} of the i-th queue the message passed through. */
    public int sourceId(int i) {
        checkIndex(i, sourceCount);
        return sourceIds[i];
    }

    /** The index of the message's excerpt in the i-th queue it passed through. */
    public long sourceIndex(int i) {
        checkIndex(i, sourceCount);
        return sourceIndexes[i];
    }

    public int timingCount() {
        return timingCount;
    }

    /** The i-th {@link System#nanoTime()} recorded: a write or a read, in the order they happened. */
    public long timing(int i) {
        checkIndex(i, timingCount);
        return timings[i];
    }

    public boolean isEmpty() {
        return sourceCount == 0 && timingCount == 0;
    }

    /** Forgets everything: the state outside a handler. Method readers do this themselves. */
    public void reset() {
        sourceCount = 0;
        timingCount = 0;
    }

    /**
     * Records a queue the message passed through. Method writers and readers call this; bridges that move
     * messages by other means may too.
     *
     * @throws IllegalStateException when {@value #MAX_ENTRIES} sources are recorded already
     */
    public void addSource(int sourceId, long index) {
        if (sourceCount == MAX_ENTRIES) {
            throw new IllegalStateException("message history is full: it holds " + MAX_ENTRIES
                    + " sources; a message that loops between queues must not keep history on every hop");
        }
        sourceIds[sourceCount] = sourceId;
        sourceIndexes[sourceCount++] = index;
    }

    /**
     * Records a read or a write at {@code nanoTime}.
     *
     * @throws IllegalStateException when {@value #MAX_ENTRIES} timings are recorded already
     */
    public void addTiming(long nanoTime) {
        if (timingCount == MAX_ENTRIES) {
            throw new IllegalStateException("message history is full: it holds " + MAX_ENTRIES + " timings");
        }
        timings[timingCount++] = nanoTime;
    }

    private static void checkIndex(int i, int count) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("entry " + i + " of a message history holding " + count);
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("MessageHistory{sources=[");
        for (int i = 0; i < sourceCount; i++) {
            text.append(i == 0 ? "" : ", ").append(sourceIds[i]).append("@0x")
                    .append(Long.toHexString(sourceIndexes[i]));
        }
        text.append("], timings=[");
        for (int i = 0; i < timingCount; i++) {
            text.append(i == 0 ? "" : ", ").append(timings[i]);
        }
        return text.append("]}").toString();
    }
}
