package io.cq.core.internal.lock;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;

/**
 * Write-lock tokens that dead processes left in the word, cleared when a writer opens the queue (docs/file-format.md,
 * "Locks and liveness": the "clear" transition), and the upgrade of a version 1 table store, whose tokens name their
 * process differently. With {@link WriteLock}, the only code that writes the lock word.
 */
public final class LeftoverTokens {
    private LeftoverTokens() {
    }

    /**
     * Right after this process opened the queue for writing (its process slot claimed): upgrades a version 1 table
     * store, and clears a token that names this process's slot but no live appender of this JVM, which the slot's
     * previous process left when it died.
     *
     * @throws QueueException when a live writer of an older cq (version 1) writes the queue
     */
    public static void clearOnOpening(TableStore store) {
        if (store.openedVersion() == TableStoreDescriptor.FORMAT_VERSION_1) {
            upgradeFromVersion1(store);
        }
        MemorySegment memory = store.memory();
        long owner = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
        if (owner != LockWordDescriptor.FREE && LockWordDescriptor.processSlot(owner) == store.processSlot()
                && !store.liveWriteLocks().containsKey(owner) && releaseDeadHoldersLock(memory, owner)) {
            Log.info(LeftoverTokens.class, "released the write lock of {0} left by a process that died holding it "
                    + "(process slot {1})", store.path(), String.valueOf(store.processSlot()));
        }
    }

    /**
     * A version 1 table store (before process records and token serials) becomes version 2 when a writer of this
     * version first opens it (its file was lengthened when opened). A version 1 token left in the lock word by a
     * live writer of an older cq would be misread, so that is refused; a dead one's is cleared.
     */
    private static void upgradeFromVersion1(TableStore store) {
        MemorySegment memory = store.memory();
        store.locks().underLock(TableStoreDescriptor.SLOT_ALLOCATION_LOCK, "process slots", () -> {
            if (Memory.getIntVolatile(memory, TableStoreDescriptor.FORMAT_VERSION_OFFSET)
                    != TableStoreDescriptor.FORMAT_VERSION_1) {
                return null;
            }
            long owner = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
            if (owner != LockWordDescriptor.FREE) {
                // Version 1 tokens: bits 24..39 hold the process slot + 1.
                int slot = (int) ((owner >>> 24) & 0xFFFF) - 1;
                if (slot != store.processSlot() && store.processSlots().isAlive(slot)) {
                    throw new QueueException("queue " + store.path().getParent() + " is being written by an older cq "
                            + "(table store version 1, process slot " + slot + "); close it there before opening "
                            + "it with this one");
                }
                releaseDeadHoldersLock(memory, owner);
            }
            Memory.putIntVolatile(memory, TableStoreDescriptor.FORMAT_VERSION_OFFSET,
                    TableStoreDescriptor.FORMAT_VERSION);
            Log.info(LeftoverTokens.class, "upgraded the table store {0} from version 1 to {1}", store.path(),
                    String.valueOf(TableStoreDescriptor.FORMAT_VERSION));
            return null;
        });
    }

    /**
     * Frees the write lock of a holder known to be dead, counting that as a take in the write generation first
     * (docs/file-format.md, "Appending"): the dead holder may have published a record it never moved the hints past,
     * and an appender must not take the end for its own. Done while the dead token still holds the lock, so no live
     * holder advances the generation meanwhile.
     */
    private static boolean releaseDeadHoldersLock(MemorySegment memory, long owner) {
        long generation = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_GENERATION_OFFSET);
        Memory.putLongVolatile(memory, LockWordDescriptor.WRITE_GENERATION_OFFSET, generation + 1);
        return Memory.casLong(memory, LockWordDescriptor.WRITE_LOCK_OFFSET, owner, LockWordDescriptor.FREE);
    }
}
