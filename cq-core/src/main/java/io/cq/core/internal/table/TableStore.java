package io.cq.core.internal.table;

import io.cq.core.internal.layout.LockToken;
import io.cq.core.internal.layout.TableStoreLayout;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.AtomicFiles;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.system.Strings;
import io.cq.core.CorruptQueueException;
import io.cq.core.NamedTailerInUseException;
import io.cq.core.NamedTailerPosition;
import io.cq.core.QueueException;
import io.cq.core.RollCycle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The queue's table store, {@code metadata.cq4t}: roll cycle, write lock, cycle range and named tailer slots
 * (layout in {@link TableStoreLayout}).
 *
 * <p>One instance per file per JVM, shared by every queue opened on the directory: POSIX record locks belong
 * to a process and are all dropped when any descriptor of the file is closed, so the JVM keeps one channel
 * open until the last queue on the file closes. Thread-safe.
 */
public final class TableStore {
    private static final Map<Object, TableStore> OPEN = new HashMap<>();

    public static final long NO_CYCLE = -1;

    private final Path path;
    private final FileChannel channel;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    private final boolean writable;
    private final int slotCount;
    private final RollCycle rollCycle;
    private final Map<Integer, FileLock> heldSlots = new HashMap<>();
    private int processSlot = -1;
    private FileLock processLock;
    private Object key;
    private int references;

    private TableStore(Path path, FileChannel channel, boolean writable) throws IOException {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        long size = channel.size();
        if (size < TableStoreLayout.SLOTS_OFFSET) {
            throw new CorruptQueueException(path, size, "table store is " + size + " bytes long, shorter than its "
                    + TableStoreLayout.SLOTS_OFFSET + "-byte header");
        }
        ByteBuffer head = ByteBuffer.allocate((int) TableStoreLayout.SLOTS_OFFSET).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head, head.position()) >= 0) {
            // read the whole header
        }
        long magic = head.getLong((int) TableStoreLayout.MAGIC_OFFSET);
        if (magic != TableStoreLayout.MAGIC) {
            throw new CorruptQueueException(path, 0, String.format(
                    "not a cq table store: expected magic 'cq.table' (0x%016x), found 0x%016x", TableStoreLayout.MAGIC, magic));
        }
        int version = head.getInt((int) TableStoreLayout.FORMAT_VERSION_OFFSET);
        if (version != TableStoreLayout.FORMAT_VERSION) {
            throw new CorruptQueueException(path, TableStoreLayout.FORMAT_VERSION_OFFSET, "unsupported table store version "
                    + version + "; this cq reads version " + TableStoreLayout.FORMAT_VERSION);
        }
        this.slotCount = head.getInt((int) TableStoreLayout.SLOT_COUNT_OFFSET);
        if (slotCount <= 0 || slotCount > 1 << 16 || size < TableStoreLayout.fileSize(slotCount)) {
            throw new CorruptQueueException(path, TableStoreLayout.SLOT_COUNT_OFFSET, "slot count " + slotCount
                    + " does not fit a file of " + size + " bytes");
        }
        this.rollCycle = readRollCycle(head);
        this.memory = channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, TableStoreLayout.fileSize(slotCount), arena);
    }

    /**
     * Opens (creating it when the queue is writable and has none) the table store of a queue directory, shared
     * with any other queue of this JVM on the same directory.
     */
    public static TableStore open(Path directory, boolean readOnly, RollCycle rollCycle, long nowMillis,
                                  FilePermissions permissions) {
        Path file = directory.resolve(TableStoreLayout.FILE_NAME).toAbsolutePath().normalize();
        synchronized (OPEN) {
            try {
                if (!readOnly && !Files.exists(file)) {
                    create(file, rollCycle, nowMillis, permissions);
                }
                // Keyed by the file itself (device and inode), so a second path to it (a link, a bind mount)
                // shares the channel instead of opening one whose close would drop this JVM's locks.
                Object key = identity(file);
                TableStore open = OPEN.get(key);
                if (open != null && (open.writable || readOnly)) {
                    open.references++;
                    return open;
                }
                if (open != null) {
                    throw new QueueException("queue " + directory + " is open read-only in this JVM; close it before "
                            + "opening it for writing");
                }
                FileChannel channel = readOnly
                        ? FileChannel.open(file, StandardOpenOption.READ)
                        : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                TableStore store;
                try {
                    store = new TableStore(file, channel, !readOnly);
                } catch (RuntimeException | IOException e) {
                    channel.close();
                    throw e;
                }
                if (!readOnly) {
                    try {
                        store.claimProcessSlot();
                    } catch (RuntimeException e) {
                        store.arena.close();
                        channel.close();
                        throw e;
                    }
                }
                store.key = key;
                store.references = 1;
                OPEN.put(key, store);
                return store;
            } catch (NoSuchFileException e) {
                throw new QueueException("queue " + directory + " has no table store " + TableStoreLayout.FILE_NAME
                        + (readOnly ? "; a read-only queue must already exist" : ""), e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the table store " + file + ": " + e.getMessage(), e);
            }
        }
    }

    private static Object identity(Path file) throws IOException {
        Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        return key != null ? key : file.toRealPath();
    }

    private static void create(Path file, RollCycle rollCycle, long nowMillis, FilePermissions permissions)
            throws IOException {
        int slots = TableStoreLayout.DEFAULT_SLOT_COUNT;
        // The whole file is written (zeros after the head), so that its blocks are allocated by the write itself:
        // reserving them later through another descriptor would be fatal, since closing any descriptor of a file
        // drops every fcntl lock this process holds on it, the process slot included (docs/file-format.md).
        ByteBuffer head = ByteBuffer.allocate((int) TableStoreLayout.fileSize(slots)).order(ByteOrder.LITTLE_ENDIAN);
        head.putLong((int) TableStoreLayout.MAGIC_OFFSET, TableStoreLayout.MAGIC);
        head.putInt((int) TableStoreLayout.FORMAT_VERSION_OFFSET, TableStoreLayout.FORMAT_VERSION);
        head.putInt((int) TableStoreLayout.SLOT_COUNT_OFFSET, slots);
        head.putLong((int) TableStoreLayout.ROLL_LENGTH_OFFSET, rollCycle.lengthMillis());
        head.putLong((int) TableStoreLayout.ROLL_EPOCH_OFFSET, rollCycle.epochOffsetMillis());
        head.putInt((int) TableStoreLayout.SEQUENCE_BITS_OFFSET, rollCycle.sequenceBits());
        byte[] name = rollCycle.name().getBytes(StandardCharsets.US_ASCII);
        head.putInt((int) TableStoreLayout.ROLL_NAME_LENGTH_OFFSET, name.length);
        head.put((int) TableStoreLayout.ROLL_NAME_OFFSET, name);
        head.putLong((int) TableStoreLayout.CREATED_MILLIS_OFFSET, nowMillis);
        head.putLong((int) TableStoreLayout.MAX_CYCLE_OFFSET, NO_CYCLE);
        head.putLong((int) TableStoreLayout.MIN_CYCLE_OFFSET, NO_CYCLE);
        AtomicFiles.createWithContent(file, head, TableStoreLayout.fileSize(slots), permissions);
    }

    private RollCycle readRollCycle(ByteBuffer head) {
        int length = head.getInt((int) TableStoreLayout.ROLL_NAME_LENGTH_OFFSET);
        if (length <= 0 || length > TableStoreLayout.ROLL_NAME_CAPACITY) {
            throw new CorruptQueueException(path, TableStoreLayout.ROLL_NAME_LENGTH_OFFSET, "roll cycle name length "
                    + length + " is out of range 1.." + TableStoreLayout.ROLL_NAME_CAPACITY);
        }
        byte[] nameBytes = new byte[length];
        head.get((int) TableStoreLayout.ROLL_NAME_OFFSET, nameBytes);
        String name = new String(nameBytes, StandardCharsets.US_ASCII);
        try {
            RollCycle cycle = RollCycle.valueOf(name);
            if (cycle.lengthMillis() != head.getLong((int) TableStoreLayout.ROLL_LENGTH_OFFSET)
                    || cycle.sequenceBits() != head.getInt((int) TableStoreLayout.SEQUENCE_BITS_OFFSET)) {
                throw new CorruptQueueException(path, TableStoreLayout.ROLL_LENGTH_OFFSET, "roll cycle " + name
                        + " is recorded with a length or sequence bits that differ from this cq's " + name);
            }
            return cycle;
        } catch (IllegalArgumentException e) {
            throw new CorruptQueueException(path, TableStoreLayout.ROLL_NAME_OFFSET, "unknown roll cycle '" + name + "'");
        }
    }

    public Path path() {
        return path;
    }

    public boolean writable() {
        return writable;
    }

    /** The roll cycle the queue was created with. */
    public RollCycle rollCycle() {
        return rollCycle;
    }

    // ---- write lock and cycle range (docs/file-format.md, "Appending") ----------------------------------

    public long writeLockOwner() {
        return Memory.getLongVolatile(memory, TableStoreLayout.WRITE_LOCK_OFFSET);
    }

    public boolean tryTakeWriteLock(long token) {
        return Memory.casLong(memory, TableStoreLayout.WRITE_LOCK_OFFSET, 0, token);
    }

    public void releaseWriteLock(long token) {
        // Release store: publishes every record, index entry and hint written under the lock to the next holder.
        Memory.putLongRelease(memory, TableStoreLayout.WRITE_LOCK_OFFSET, 0);
    }

    /**
     * Takes the first free process slot: an OS lock this process keeps while it has the queue open for writing,
     * and that the kernel drops when the process dies, however it dies. A write-lock token naming this slot
     * left in the lock word belonged to the slot's previous process, which is therefore dead: it is cleared.
     */
    private void claimProcessSlot() throws IOException {
        for (int slot = 0; slot < TableStoreLayout.PROCESS_SLOTS; slot++) {
            FileLock lock = channel.tryLock(TableStoreLayout.processLockRegion(slot), 1, false);
            if (lock != null) {
                processSlot = slot;
                processLock = lock;
                long owner = writeLockOwner();
                if (owner != 0 && LockToken.processSlot(owner) == slot && replaceWriteLockOwner(owner, 0)) {
                    Log.info(TableStore.class, "released the write lock of {0} left by a process that died holding it "
                            + "(pid {1})", path,
                            String.valueOf(LockToken.pid(owner)));
                }
                return;
            }
        }
        throw new QueueException("queue " + path.getParent() + " is open for writing in " + TableStoreLayout.PROCESS_SLOTS
                + " processes already, the most it allows");
    }

    /** This process's slot, or -1 on a read-only table store. */
    public int processSlot() {
        return processSlot;
    }

    /** Whether the process holding a process slot is alive: its OS lock on the slot is still held. */
    public boolean isProcessAlive(int slot) {
        if (slot < 0 || slot >= TableStoreLayout.PROCESS_SLOTS) {
            return false;
        }
        return isLockHeld(TableStoreLayout.processLockRegion(slot), "process slot " + slot);
    }

    /** Hands the write lock from a holder known to be dead to a new owner (or to nobody, with 0). */
    public boolean replaceWriteLockOwner(long deadOwner, long newOwner) {
        return Memory.casLong(memory, TableStoreLayout.WRITE_LOCK_OFFSET, deadOwner, newOwner);
    }

    public long maxCycle() {
        return Memory.getLongAcquire(memory, TableStoreLayout.MAX_CYCLE_OFFSET);
    }

    public long minCycle() {
        return Memory.getLongAcquire(memory, TableStoreLayout.MIN_CYCLE_OFFSET);
    }

    /** Under the write lock, after the cycle's file exists and the previous cycle is marked finished. */
    public void publishCycle(long cycle) {
        if (cycle > maxCycle()) {
            Memory.putLongRelease(memory, TableStoreLayout.MAX_CYCLE_OFFSET, cycle);
        }
        long min = minCycle();
        if (min == NO_CYCLE || cycle < min) {
            Memory.putLongRelease(memory, TableStoreLayout.MIN_CYCLE_OFFSET, cycle);
        }
    }

    /** Under the write lock, after retention deleted the oldest cycles' files. */
    public void publishMinCycle(long cycle) {
        Memory.putLongRelease(memory, TableStoreLayout.MIN_CYCLE_OFFSET, cycle);
    }

    // ---- named tailer slots -----------------------------------------------------------------------------

    /**
     * Takes a named tailer slot for this process, creating it on first use.
     *
     * @throws NamedTailerInUseException when a live tailer in this or another process holds the name
     */
    public synchronized int claimSlot(String queue, String name, String holder) {
        requireWritable("named tailers");
        return underAllocationLock(() -> claimSlotLocked(queue, name, holder));
    }

    private int claimSlotLocked(String queue, String name, String holder) {
        int slot = findOrAddSlot(queue, name);
        FileLock lock;
        try {
            lock = heldSlots.containsKey(slot) ? null : channel.tryLock(TableStoreLayout.slotLockRegion(slot), 1, false);
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock named tailer slot " + slot + " of " + path, e);
        }
        if (lock == null) {
            String recorded = readString(slot, TableStoreLayout.SLOT_HOLDER_LENGTH, TableStoreLayout.SLOT_HOLDER_CAPACITY);
            throw new NamedTailerInUseException(queue, name, recorded.isEmpty() ? "another process" : recorded);
        }
        heldSlots.put(slot, lock);
        writeString(slot, TableStoreLayout.SLOT_HOLDER_LENGTH, TableStoreLayout.SLOT_HOLDER_CAPACITY, holder);
        return slot;
    }

    public synchronized void releaseSlot(int slot) {
        FileLock lock = heldSlots.remove(slot);
        if (lock == null) {
            return;
        }
        writeString(slot, TableStoreLayout.SLOT_HOLDER_LENGTH, TableStoreLayout.SLOT_HOLDER_CAPACITY, "");
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unlock named tailer slot " + slot + " of " + path, e);
        }
    }

    /** Forces the table store's pages (named tailer positions, cycle range) to storage. */
    public void force() {
        if (writable) {
            memory.force();
        }
    }

    public long slotNextIndex(int slot) {
        return Memory.getLongAcquire(memory, TableStoreLayout.slotOffset(slot) + TableStoreLayout.SLOT_NEXT_INDEX);
    }

    /** Persists a named tailer's position; a plain ordered store into the mapped file (no system call). */
    public void storeSlotNextIndex(int slot, long nextIndex) {
        Memory.putLongRelease(memory, TableStoreLayout.slotOffset(slot) + TableStoreLayout.SLOT_NEXT_INDEX, nextIndex);
    }

    /** The persisted position of a named tailer, or empty when no tailer of that name was ever created. */
    public synchronized Optional<NamedTailerPosition> position(String name) {
        return underAllocationLock(() -> {
            int slot = findSlot(name);
            return slot < 0 ? Optional.empty() : Optional.of(positionOf(slot));
        });
    }

    /** All named tailers, in the order they were first created. */
    public synchronized List<NamedTailerPosition> positions() {
        return underAllocationLock(() -> {
            List<NamedTailerPosition> result = new ArrayList<>();
            for (int slot = 0; slot < slotCount; slot++) {
                if (slotState(slot) == TableStoreLayout.SLOT_USED) {
                    result.add(positionOf(slot));
                }
            }
            return result;
        });
    }

    /** Runs an action while holding the slot-allocation lock (shared on a read-only channel, which cannot hold
     * an exclusive lock), so claims and probes in different processes never interleave. */
    private <T> T underAllocationLock(Supplier<T> action) {
        try (FileLock ignored = channel.lock(TableStoreLayout.SLOT_ALLOCATION_LOCK, 1, !writable)) {
            return action.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the named tailer slots of " + path, e);
        }
    }

    /** Sets the position of a named tailer that no live tailer holds, creating the slot if needed. */
    public synchronized void setPosition(String queue, String name, long nextIndex) {
        int slot = claimSlot(queue, name, "position update by " + ProcessIdentity.describeCurrentThread());
        try {
            storeSlotNextIndex(slot, nextIndex);
        } finally {
            releaseSlot(slot);
        }
    }

    private NamedTailerPosition positionOf(int slot) {
        String name = readString(slot, TableStoreLayout.SLOT_NAME_LENGTH, TableStoreLayout.SLOT_NAME_CAPACITY);
        String holder = "";
        if (isSlotHeld(slot)) {
            holder = readString(slot, TableStoreLayout.SLOT_HOLDER_LENGTH, TableStoreLayout.SLOT_HOLDER_CAPACITY);
            if (holder.isEmpty()) {
                holder = "another process";
            }
        }
        return new NamedTailerPosition(name, slotNextIndex(slot), holder);
    }

    /**
     * Whether a live tailer holds a named-tailer slot. Callers hold the allocation lock, so a claim elsewhere
     * cannot run into the probe and take it for a live holder.
     */
    private boolean isSlotHeld(int slot) {
        if (heldSlots.containsKey(slot)) {
            return true;
        }
        return isLockHeld(TableStoreLayout.slotLockRegion(slot), "named tailer slot " + slot);
    }

    /**
     * Whether some process holds the record lock on a byte: a probe that gets it lets go at once. A shared probe
     * works on a read-only channel too; either kind fails while a live holder has the exclusive lock.
     */
    private boolean isLockHeld(long region, String what) {
        try (FileLock probe = channel.tryLock(region, 1, !writable)) {
            return probe == null;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe the lock of " + what + " of " + path, e);
        }
    }

    private int findOrAddSlot(String queue, String name) {
        int slot = findSlot(name);
        if (slot >= 0) {
            return slot;
        }
        for (slot = 0; slot < slotCount; slot++) {
            if (slotState(slot) == TableStoreLayout.SLOT_FREE) {
                long base = TableStoreLayout.slotOffset(slot);
                Memory.putLong(memory, base + TableStoreLayout.SLOT_NEXT_INDEX, -1L);
                writeString(slot, TableStoreLayout.SLOT_NAME_LENGTH, TableStoreLayout.SLOT_NAME_CAPACITY, name);
                Memory.putIntRelease(memory, base + TableStoreLayout.SLOT_STATE, TableStoreLayout.SLOT_USED);
                return slot;
            }
        }
        throw new QueueException("queue " + queue + " has no free named tailer slot: all " + slotCount + " are used");
    }

    private int findSlot(String name) {
        for (int slot = 0; slot < slotCount; slot++) {
            if (slotState(slot) == TableStoreLayout.SLOT_USED
                    && name.equals(readString(slot, TableStoreLayout.SLOT_NAME_LENGTH, TableStoreLayout.SLOT_NAME_CAPACITY))) {
                return slot;
            }
        }
        return -1;
    }

    private int slotState(int slot) {
        return Memory.getIntAcquire(memory, TableStoreLayout.slotOffset(slot) + TableStoreLayout.SLOT_STATE);
    }

    private String readString(int slot, long lengthOffset, int capacity) {
        long base = TableStoreLayout.slotOffset(slot);
        int length = Memory.getInt(memory, base + lengthOffset);
        if (length < 0 || length > capacity) {
            throw new CorruptQueueException(path, base + lengthOffset, "string length " + length
                    + " is out of range 0.." + capacity);
        }
        byte[] bytes = memory.asSlice(base + lengthOffset + Integer.BYTES, length).toArray(ValueLayout.JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private void writeString(int slot, long lengthOffset, int capacity, String value) {
        byte[] bytes = Strings.truncateUtf8(value, capacity);
        long base = TableStoreLayout.slotOffset(slot);
        MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, base + lengthOffset + Integer.BYTES, bytes.length);
        Memory.putInt(memory, base + lengthOffset, bytes.length);
    }

    private void requireWritable(String what) {
        if (!writable) {
            throw new QueueException(what + " need a writable queue, but " + path.getParent() + " was opened read-only");
        }
    }

    /** Gives up this queue's share; the JVM's last share unmaps the file and drops its locks. */
    public void release() {
        // All under OPEN: a new open of the same file must not get a channel while this one is being closed,
        // since closing it drops every record lock this process holds on the file.
        synchronized (OPEN) {
            if (--references > 0) {
                return;
            }
            OPEN.remove(key);
            synchronized (this) {
                heldSlots.clear();
                processLock = null;
                try {
                    arena.close();
                } finally {
                    try {
                        channel.close();
                    } catch (IOException e) {
                        Log.warning(TableStore.class, "cannot close " + path, e);
                    }
                }
            }
        }
    }
}
