package io.cq.core.support;

import java.lang.management.ManagementFactory;

/**
 * The bytes the calling thread has allocated on the heap (HotSpot's per-thread counter), for tests that prove a path
 * allocates nothing per message: {@code long before = now(); ...; long allocated = since(before);}.
 */
public final class AllocatedBytes {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocatedBytes() {
    }

    /** The calling thread's allocation counter now. */
    public static long now() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().threadId());
    }

    /** What the calling thread allocated since {@code before} ({@link #now()} then). */
    public static long since(long before) {
        return now() - before;
    }
}
