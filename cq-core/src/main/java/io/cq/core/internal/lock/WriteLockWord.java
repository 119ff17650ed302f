package io.cq.core.internal.lock;

import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The write-lock word of a table store (layout and protocol in {@link LockWordDescriptor}): compare-and-set to
 * take it, a release store to give it back. Thread-safe; holds no state but the mapping.
 */
public final class WriteLockWord {
    private final TableStore store;
    private final MemorySegment memory;

    public WriteLockWord(TableStore store) {
        this.store = store;
        this.memory = store.memory();
    }

    /** The holder's token, or {@link LockWordDescriptor#FREE}. */
    public long owner() {
        return Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
    }

    public boolean tryTake(long token) {
        return Memory.casLong(memory, LockWordDescriptor.WRITE_LOCK_OFFSET, LockWordDescriptor.FREE, token);
    }

    public void release(long token) {
        // Release store: publishes every record, index entry and hint written under the lock to the next holder.
        Memory.putLongRelease(memory, LockWordDescriptor.WRITE_LOCK_OFFSET, LockWordDescriptor.FREE);
    }

    /** Hands the lock from a holder known to be dead to a new owner (or to nobody, with FREE). */
    public boolean replace(long deadOwner, long newOwner) {
        return Memory.casLong(memory, LockWordDescriptor.WRITE_LOCK_OFFSET, deadOwner, newOwner);
    }

    /** Whether the process that a token names still has the queue open: its process-slot lock is held. */
    public boolean isHolderProcessAlive(long token) {
        return store.isProcessAlive(LockWordDescriptor.processSlot(token));
    }

    /** This process's slot, named by the tokens of its appenders. */
    public int processSlot() {
        return store.processSlot();
    }

    public Path path() {
        return store.path();
    }
}
