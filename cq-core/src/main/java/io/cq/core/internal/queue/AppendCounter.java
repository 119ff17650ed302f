package io.cq.core.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Excerpts and bytes published by the appenders of one open queue (this process only), for monitoring.
 *
 * <p>Updated only while the queue's write lock is held, so writers never race: a plain read and a release store
 * suffice, and an append pays two stores instead of an atomic read-modify-write. Readers on other threads load
 * with acquire and see a recent, never torn, value.
 */
public final class AppendCounter {
    private static final VarHandle EXCERPTS;
    private static final VarHandle BYTES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EXCERPTS = lookup.findVarHandle(AppendCounter.class, "excerpts", long.class);
            BYTES = lookup.findVarHandle(AppendCounter.class, "bytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through EXCERPTS
    private long excerpts;
    @SuppressWarnings("unused") // accessed through BYTES
    private long bytes;

    /** Counts one published excerpt; call only while holding the write lock. */
    public void recordUnderWriteLock(int length) {
        EXCERPTS.setRelease(this, (long) EXCERPTS.get(this) + 1);
        BYTES.setRelease(this, (long) BYTES.get(this) + length);
    }

    public long excerpts() {
        return (long) EXCERPTS.getAcquire(this);
    }

    public long bytes() {
        return (long) BYTES.getAcquire(this);
    }
}
