package io.cq.core.internal.layout;

/**
 * The write lock (docs/file-format.md, "Locks and liveness"): one 8-byte word of the table store at
 * {@link #WRITE_LOCK_OFFSET}, on a cache line of its own, holding 0 when free and the holder's token otherwise.
 * An appender takes it with a compare-and-set from 0 to its token and gives it back with a release store of 0,
 * which publishes everything written under it.
 *
 * <pre>
 *   63 ........ 40 39 ........ 24 23 ......... 0
 *  +--------------+--------------+--------------+
 *  | pid (24 bits)| process slot | appender     |
 *  |  for humans  |    + 1       | counter      |
 *  +--------------+--------------+--------------+
 * </pre>
 *
 * The process slot is what liveness is decided by: the holder's process keeps an OS record lock on byte
 * {@link #processLockRegion(int)} of the table store while it has the queue open for writing. The pid only goes
 * into messages (it means nothing in another pid namespace). A token is never 0, since the slot field is at least 1.
 */
public final class LockWordDescriptor {
    /** Offset of the lock word in the table store. */
    public static final long WRITE_LOCK_OFFSET = 128;
    /** The lock word's value while nobody holds the lock. */
    public static final long FREE = 0;
    /** How many processes may have a queue open for writing at once. */
    public static final int PROCESS_SLOTS = 4096;

    private static final int SLOT_SHIFT = 24;
    private static final int PID_SHIFT = 40;
    private static final long COUNTER_MASK = (1L << SLOT_SHIFT) - 1;
    private static final long SLOT_MASK = (1L << (PID_SHIFT - SLOT_SHIFT)) - 1;
    private static final long PID_MASK = (1L << (Long.SIZE - PID_SHIFT)) - 1;
    /** Process-slot locks follow the named-tailer slot locks in the table store's lock regions. */
    private static final long PROCESS_LOCK_REGIONS = TableStoreDescriptor.LOCK_REGION_BASE + 1
            + TableStoreDescriptor.MAX_SLOT_COUNT;

    private LockWordDescriptor() {
    }

    /** The token of an appender: its process's pid (for messages), process slot and a per-process counter. */
    public static long token(long pid, int processSlot, int counter) {
        return (pid & PID_MASK) << PID_SHIFT | (long) (processSlot + 1) << SLOT_SHIFT | (counter & COUNTER_MASK);
    }

    /** The process slot a token names: the one whose OS lock tells whether the holder is alive. */
    public static int processSlot(long token) {
        return (int) ((token >>> SLOT_SHIFT) & SLOT_MASK) - 1;
    }

    /** The low 24 bits of the holder's pid, for messages only. */
    public static long pid(long token) {
        return token >>> PID_SHIFT;
    }

    /** The byte of the table store a process locks while it has the queue open for writing. */
    public static long processLockRegion(int processSlot) {
        return PROCESS_LOCK_REGIONS + processSlot;
    }
}
