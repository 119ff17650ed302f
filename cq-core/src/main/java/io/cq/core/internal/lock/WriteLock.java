package io.cq.core.internal.lock;

import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.table.TableStore;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The queue-wide append lock: a word in the table store that appenders in any thread or process take with a
 * compare-and-set of their token and give back with a release store (docs/file-format.md, "Appending").
 *
 * <p>A waiter spins briefly, then yields, then parks for growing intervals, so a waiting appender does not take
 * a core from the holder on a small machine. Every {@code livenessCheckNanos} of waiting it asks whether the
 * holder is still alive, by the holder's process lock or, in this JVM, by its thread (docs/file-format.md,
 * "Locks and liveness"); only a dead holder's lock is taken over. Each appender owns one WriteLock; not
 * thread-safe.
 */
public final class WriteLock implements AutoCloseable {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long MAX_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long WARN_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The write locks of this JVM by token, to tell a live thread's hold from a dead thread's. */
    private static final Map<Long, WriteLock> LIVE = new ConcurrentHashMap<>();

    private final WriteLockWord word;
    private final long token;
    private final long livenessCheckNanos;
    /** The thread that last took the lock; read only by waiters of this JVM deciding whether it died. */
    private Thread holder;

    public WriteLock(TableStore store, long livenessCheckNanos) {
        this.word = new WriteLockWord(store);
        this.token = ProcessIdentity.newToken(word.processSlot());
        this.livenessCheckNanos = livenessCheckNanos;
        LIVE.put(token, this);
    }

    public void acquire() {
        if (!word.tryTake(token)) {
            acquireContended();
        }
        holder = Thread.currentThread();
    }

    private void acquireContended() {
        long started = System.nanoTime();
        long nextCheck = started + livenessCheckNanos;
        long park = 1_000;
        boolean warned = false;
        for (int attempt = 0; ; attempt++) {
            if (word.owner() == 0 && word.tryTake(token)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            if (attempt < SPINS + YIELDS) {
                Thread.yield();
                continue;
            }
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, MAX_PARK_NANOS);
            long now = System.nanoTime();
            if (now - nextCheck >= 0) {
                nextCheck = now + livenessCheckNanos;
                if (takeOverFromDeadHolder()) {
                    return;
                }
            }
            if (!warned && now - started > WARN_AFTER_NANOS) {
                warned = true;
                long owner = word.owner();
                Log.warning(WriteLock.class,
                        "waited more than {0} s for the write lock of {1}, held by a live appender "
                        + "(pid {2})", String.valueOf(TimeUnit.NANOSECONDS.toSeconds(WARN_AFTER_NANOS)), word.path(),
                        String.valueOf(LockWordDescriptor.pid(owner)));
            }
        }
    }

    private boolean takeOverFromDeadHolder() {
        long owner = word.owner();
        if (owner == 0 || !isDead(owner) || !word.replace(owner, token)) {
            return false;
        }
        // Informational: the one warning is the repair of the record it left, which names file and position.
        Log.info(WriteLock.class, "took over the write lock of {0} from a writer that died holding it (pid {1}, "
                + "process slot {2})",
                word.path(), String.valueOf(LockWordDescriptor.pid(owner)),
                String.valueOf(LockWordDescriptor.processSlot(owner)));
        return true;
    }

    private boolean isDead(long owner) {
        if (LockWordDescriptor.processSlot(owner) == word.processSlot()) {
            // Our own process: a token no live appender of this JVM has is a predecessor's that died with its slot.
            WriteLock lock = LIVE.get(owner);
            if (lock == null) {
                return true;
            }
            Thread thread = lock.holder;
            return thread != null && !thread.isAlive();
        }
        return !word.isHolderProcessAlive(owner);
    }

    public void release() {
        word.release(token);
    }

    @Override
    public void close() {
        LIVE.remove(token);
    }
}
