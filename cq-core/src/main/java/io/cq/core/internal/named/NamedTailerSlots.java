package io.cq.core.internal.named;

import io.cq.core.CorruptQueueException;
import io.cq.core.NamedTailerPosition;
import io.cq.core.QueueException;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.system.Strings;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The named tailers' slots in the table store (layout in {@link TableStoreDescriptor}): a name, the next index to
 * read and, for messages only, a description of the holder. Who holds a slot is an OS record lock on the slot's
 * byte, never what the file says (docs/file-format.md, "Locks and liveness").
 *
 * <p>Thread-safe: everything that looks up or changes slots runs under the table store's monitor (shared by every
 * queue of this JVM on the file) and the slot-allocation record lock (shared with other processes).
 */
public final class NamedTailerSlots {
    private static final String ANOTHER_PROCESS = "another process";

    private final TableStore store;
    private final MemorySegment memory;
    private final String queue;

    public NamedTailerSlots(TableStore store, String queue) {
        this.store = store;
        this.memory = store.memory();
        this.queue = queue;
    }

    /**
     * Checks a named tailer's name.
     *
     * @throws IllegalArgumentException saying what a name may be
     */
    public static void requireValidName(String name) {
        if (!isValidTailerName(name)) {
            throw new IllegalArgumentException("tailer name '" + name + "' is not valid: use 1 to "
                    + TableStoreDescriptor.SLOT_NAME_CAPACITY + " letters, digits, '.', '_' or '-', starting with a "
                    + "letter or digit");
        }
    }

    /** 1 to 64 (the slot's name capacity, in ASCII) of [A-Za-z0-9._-], the first a letter or digit: safe as a file
     * name, never a path. */
    private static boolean isValidTailerName(String name) {
        if (name == null || name.isEmpty() || name.length() > TableStoreDescriptor.SLOT_NAME_CAPACITY) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean alphanumeric = c < 128 && Character.isLetterOrDigit(c);
            if (!alphanumeric && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes a named tailer slot for this process, creating it on first use.
     *
     * @throws io.cq.core.NamedTailerInUseException when a live tailer in this or another process holds the name
     */
    public int claim(String name, String holder) {
        requireWritable();
        synchronized (store) {
            return underAllocationLock(() -> claimLocked(name, holder));
        }
    }

    private int claimLocked(String name, String holder) {
        int slot = findOrAdd(name);
        if (!store.locks().tryHold(TableStoreDescriptor.slotLockRegion(slot))) {
            String recorded = readString(slot, TableStoreDescriptor.SLOT_HOLDER_LENGTH,
                    TableStoreDescriptor.SLOT_HOLDER_CAPACITY);
            throw Failures.namedTailerInUse(queue, name, recorded.isEmpty() ? ANOTHER_PROCESS : recorded);
        }
        writeString(slot, TableStoreDescriptor.SLOT_HOLDER_LENGTH, TableStoreDescriptor.SLOT_HOLDER_CAPACITY, holder);
        return slot;
    }

    /** Gives a slot this JVM holds back; nothing happens for one it does not hold. */
    public void release(int slot) {
        synchronized (store) {
            if (store.locks().isHeldHere(TableStoreDescriptor.slotLockRegion(slot))) {
                writeString(slot, TableStoreDescriptor.SLOT_HOLDER_LENGTH, TableStoreDescriptor.SLOT_HOLDER_CAPACITY,
                        "");
                store.locks().unlock(TableStoreDescriptor.slotLockRegion(slot));
            }
        }
    }

    public long nextIndex(int slot) {
        return Memory.getLongAcquire(memory, TableStoreDescriptor.slotOffset(slot)
                + TableStoreDescriptor.SLOT_NEXT_INDEX);
    }

    /** Persists a named tailer's position; a plain ordered store into the mapped file (no system call). */
    public void storeNextIndex(int slot, long nextIndex) {
        Memory.putLongRelease(memory, TableStoreDescriptor.slotOffset(slot) + TableStoreDescriptor.SLOT_NEXT_INDEX,
                nextIndex);
    }

    /** The persisted position of a named tailer, or empty when no tailer of that name was ever created. */
    public Optional<NamedTailerPosition> position(String name) {
        synchronized (store) {
            return underAllocationLock(() -> {
                int slot = find(name);
                return slot < 0 ? Optional.empty() : Optional.of(positionOf(slot));
            });
        }
    }

    /** All named tailers, in the order they were first created. */
    public List<NamedTailerPosition> positions() {
        synchronized (store) {
            return underAllocationLock(() -> {
                List<NamedTailerPosition> result = new ArrayList<>();
                for (int slot = 0; slot < store.slotCount(); slot++) {
                    if (state(slot) == TableStoreDescriptor.SLOT_USED) {
                        result.add(positionOf(slot));
                    }
                }
                return result;
            });
        }
    }

    /** Sets the position of a named tailer that no live tailer holds, creating the slot if needed. */
    public void setPosition(String name, long nextIndex) {
        synchronized (store) {
            int slot = claim(name, "position update by " + ProcessIdentity.describeCurrentThread());
            try {
                storeNextIndex(slot, nextIndex);
            } finally {
                release(slot);
            }
        }
    }

    private <T> T underAllocationLock(Supplier<T> action) {
        return store.locks().underLock(TableStoreDescriptor.SLOT_ALLOCATION_LOCK, "named tailer slots", action);
    }

    private NamedTailerPosition positionOf(int slot) {
        String name = readString(slot, TableStoreDescriptor.SLOT_NAME_LENGTH, TableStoreDescriptor.SLOT_NAME_CAPACITY);
        String holder = "";
        // Under the allocation lock, so a claim elsewhere cannot run into the probe and take it for a live holder.
        if (store.locks().isHeld(TableStoreDescriptor.slotLockRegion(slot), "named tailer slot " + slot)) {
            holder = readString(slot, TableStoreDescriptor.SLOT_HOLDER_LENGTH,
                    TableStoreDescriptor.SLOT_HOLDER_CAPACITY);
            if (holder.isEmpty()) {
                holder = ANOTHER_PROCESS;
            }
        }
        return new NamedTailerPosition(name, nextIndex(slot), holder);
    }

    private int findOrAdd(String name) {
        int slot = find(name);
        if (slot >= 0) {
            return slot;
        }
        for (slot = 0; slot < store.slotCount(); slot++) {
            if (state(slot) == TableStoreDescriptor.SLOT_FREE) {
                long base = TableStoreDescriptor.slotOffset(slot);
                Memory.putLong(memory, base + TableStoreDescriptor.SLOT_NEXT_INDEX, -1L);
                writeString(slot, TableStoreDescriptor.SLOT_NAME_LENGTH, TableStoreDescriptor.SLOT_NAME_CAPACITY, name);
                // Publishes the slot: its name and position are written before a reader sees it used.
                Memory.putIntRelease(memory, base + TableStoreDescriptor.SLOT_STATE, TableStoreDescriptor.SLOT_USED);
                return slot;
            }
        }
        throw new QueueException("queue " + queue + " has no free named tailer slot: all " + store.slotCount()
                + " are used");
    }

    private int find(String name) {
        for (int slot = 0; slot < store.slotCount(); slot++) {
            if (state(slot) == TableStoreDescriptor.SLOT_USED && name.equals(readString(slot,
                    TableStoreDescriptor.SLOT_NAME_LENGTH, TableStoreDescriptor.SLOT_NAME_CAPACITY))) {
                return slot;
            }
        }
        return -1;
    }

    private int state(int slot) {
        return Memory.getIntAcquire(memory, TableStoreDescriptor.slotOffset(slot) + TableStoreDescriptor.SLOT_STATE);
    }

    private String readString(int slot, long lengthOffset, int capacity) {
        long base = TableStoreDescriptor.slotOffset(slot);
        int length = Memory.getInt(memory, base + lengthOffset);
        if (length < 0 || length > capacity) {
            throw new CorruptQueueException(store.path(), base + lengthOffset, "string length " + length
                    + " is out of range 0.." + capacity);
        }
        byte[] bytes = memory.asSlice(base + lengthOffset + Integer.BYTES, length).toArray(ValueLayout.JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private void writeString(int slot, long lengthOffset, int capacity, String value) {
        byte[] bytes = Strings.truncateUtf8(value, capacity);
        long base = TableStoreDescriptor.slotOffset(slot);
        MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, base + lengthOffset + Integer.BYTES, bytes.length);
        Memory.putInt(memory, base + lengthOffset, bytes.length);
    }

    private void requireWritable() {
        if (!store.writable()) {
            throw new QueueException("named tailers need a writable queue, but " + queue + " was opened read-only");
        }
    }
}
