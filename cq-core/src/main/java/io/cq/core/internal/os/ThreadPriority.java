package io.cq.core.internal.os;

import io.cq.core.internal.os.NativeAccess.Calls;

/** {@code setpriority(2)} for the calling thread, where {@link NativeAccess} has linked it. */
public final class ThreadPriority {
    private ThreadPriority() {
    }

    /**
     * Gives the calling thread a nice value (Linux: 0 is the default, 19 the lowest priority), so that a background
     * thread yields its core to the application's threads; false where that cannot be done here (no native access,
     * not Linux), which changes speed only.
     */
    public static boolean niceThisThread(int nice) {
        if (!NativeAccess.canReserveBlocks() || Calls.SETPRIORITY == null) {
            return false;
        }
        try {
            // PRIO_PROCESS (0) with who = 0: on Linux, the calling thread alone.
            return (int) Calls.SETPRIORITY.invokeExact(0, 0, nice) == 0;
        } catch (Throwable e) {
            return false;
        }
    }
}
