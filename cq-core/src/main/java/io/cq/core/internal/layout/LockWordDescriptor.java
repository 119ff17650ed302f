package io.cq.core.internal.layout;

/**
 * The write lock (docs/file-format.md, "Locks and liveness"): one 8-byte word of the table store at
 * {@link #WRITE_LOCK_OFFSET}, on a cache line of its own, holding 0 when free and the holder's token otherwise.
 * An appender takes it with a compare-and-set from 0 to its token, and gives it back with a release store of 0
 * from the thread that took it, or a compare-and-set from its token to 0 from any other thread, which changes
 * nothing when the word holds another token (a stale release). Either publishes everything written under it.
 *
 * <pre>
 *   63 ........ 51 50 ................................. 0
 *  +--------------+--------------------------------------+
 *  | process slot | serial: the table store's token       |
 *  |    + 1       | counter, never issued twice           |
 *  +--------------+--------------------------------------+
 * </pre>
 *
 * The serial comes from a counter in the table store ({@link TableStoreDescriptor#TOKEN_SERIAL_OFFSET}) that every
 * process on the queue advances with an atomic add, so two tokens are equal only after 2^51 appenders were made on
 * one queue (decades at a million a second). The process slot is what liveness is decided by: the holder's
 * process keeps an OS record lock on byte {@link #processLockRegion(int)} of the table store while it has the
 * queue open for writing; who that process is (pid and host, for messages) is in its process record. A token is
 * never 0, since the slot field is at least 1.
 */
public final class LockWordDescriptor {
    /** Offset of the lock word in the table store. */
    public static final long WRITE_LOCK_OFFSET = 128;
    /**
     * Offset of the write generation in the table store, beside the lock word on its line: a count that every
     * holder of the table store's write lock advances by one when it takes the lock, before it writes anything
     * (docs/file-format.md, "Appending"). An appender that finds the count where its own last hold left it knows
     * that nobody has written since, and need not read the free mark where its last excerpt ended.
     */
    public static final long WRITE_GENERATION_OFFSET = WRITE_LOCK_OFFSET + 8;
    /** The lock word's value while nobody holds the lock. */
    public static final long FREE = 0;
    /** How many processes may have a queue open for writing at once. */
    public static final int PROCESS_SLOTS = 4096;

    private static final int SLOT_SHIFT = 51;
    /** Serials are taken modulo this: a wrap is decades away at any plausible rate. */
    public static final long SERIAL_MASK = (1L << SLOT_SHIFT) - 1;
    /** Process-slot locks follow the named-tailer slot locks in the table store's lock regions. */
    private static final long PROCESS_LOCK_REGIONS = TableStoreDescriptor.LOCK_REGION_BASE + 1
            + TableStoreDescriptor.MAX_SLOT_COUNT;

    private LockWordDescriptor() {
    }

    /** The token of an appender: its process's slot and a serial from the table store's counter. */
    public static long token(int processSlot, long serial) {
        if (processSlot < 0 || processSlot >= PROCESS_SLOTS) {
            throw new IllegalArgumentException("process slot " + processSlot + " is out of range 0.."
                    + (PROCESS_SLOTS - 1));
        }
        return (long) (processSlot + 1) << SLOT_SHIFT | (serial & SERIAL_MASK);
    }

    /** The process slot a token names: the one whose OS lock tells whether the holder is alive; -1 for none. */
    public static int processSlot(long token) {
        return (int) (token >>> SLOT_SHIFT) - 1;
    }

    /** The serial a token carries. */
    public static long serial(long token) {
        return token & SERIAL_MASK;
    }

    /** The byte of the table store a process locks while it has the queue open for writing. */
    public static long processLockRegion(int processSlot) {
        return PROCESS_LOCK_REGIONS + processSlot;
    }
}
