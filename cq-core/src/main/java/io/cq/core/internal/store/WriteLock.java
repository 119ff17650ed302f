package io.cq.core.internal.store;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The queue-wide append lock: a word in the table store that appenders in any thread or process take with a
 * compare-and-set of their token and give back with a release store (docs/file-format.md, "Appending").
 *
 * <p>A waiter spins briefly, then yields, then parks for growing intervals up to a millisecond, so a waiting
 * appender does not take a core from the holder on a small machine. Each appender owns one WriteLock; not
 * thread-safe.
 */
public final class WriteLock {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long WARN_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final TableStore store;
    private final long token = ProcessIdentity.newToken();

    public WriteLock(TableStore store) {
        this.store = store;
    }

    public void acquire() {
        if (!store.tryTakeWriteLock(token)) {
            acquireContended();
        }
    }

    private void acquireContended() {
        long started = System.nanoTime();
        long park = 1_000;
        boolean warned = false;
        for (int attempt = 0; ; attempt++) {
            if (store.writeLockOwner() == 0 && store.tryTakeWriteLock(token)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
            } else if (attempt < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, MAX_PARK_NANOS);
                if (!warned && System.nanoTime() - started > WARN_AFTER_NANOS) {
                    warned = true;
                    long owner = store.writeLockOwner();
                    Log.warning(WriteLock.class, "waited more than {0} s for the write lock of {1}, held by pid {2}",
                            String.valueOf(TimeUnit.NANOSECONDS.toSeconds(WARN_AFTER_NANOS)), store.path(),
                            String.valueOf(ProcessIdentity.pidOfToken(owner)));
                }
            }
        }
    }

    public void release() {
        store.releaseWriteLock(token);
    }

    public long token() {
        return token;
    }
}
