package io.cq.core.internal.layout;

/**
 * The value an appender stores in the table store's write-lock word while it holds the lock
 * (docs/file-format.md, "Locks and liveness"):
 *
 * <pre>
 *   63 ........ 40 39 ........ 24 23 ......... 0
 *  +--------------+--------------+--------------+
 *  | pid (24 bits)| process slot | appender     |
 *  |  for humans  |    + 1       | counter      |
 *  +--------------+--------------+--------------+
 * </pre>
 *
 * The process slot is what liveness is decided by: the holder's process keeps an OS record lock on it. The pid
 * only goes into messages (it means nothing in another pid namespace). Never 0, since the slot field is at least 1.
 */
public final class LockToken {
    private static final int SLOT_SHIFT = 24;
    private static final int PID_SHIFT = 40;
    private static final long COUNTER_MASK = (1L << SLOT_SHIFT) - 1;
    private static final long SLOT_MASK = (1L << (PID_SHIFT - SLOT_SHIFT)) - 1;

    private LockToken() {
    }

    public static long of(long pid, int processSlot, int counter) {
        return (pid & 0xFF_FFFFL) << PID_SHIFT | (long) (processSlot + 1) << SLOT_SHIFT | (counter & COUNTER_MASK);
    }

    public static int processSlot(long token) {
        return (int) ((token >>> SLOT_SHIFT) & SLOT_MASK) - 1;
    }

    public static long pid(long token) {
        return token >>> PID_SHIFT;
    }
}
