package io.cq.core.internal.table;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.QueueException;
import io.cq.core.RollCycle;
import io.cq.core.WriterProcess;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.ProcessIdentity;

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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The queue's table store, {@code metadata.cq4t} (layout in {@link TableStoreDescriptor}): its header, the cycle
 * range, this process's process slot, and the record locks on the file. The write-lock word and the named-tailer
 * slots it holds are read and written by {@code WriteLockWord} and {@code NamedTailerSlots}.
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
    private final CycleCalendar calendar;
    private final AsyncBufferConfig asyncBuffer;
    /** Whether the file has process records (format version 2, or 1 upgraded): a read-only map of a v1 file not. */
    private final boolean hasProcessRecords;
    private final int openedVersion;
    /** Record locks this JVM holds on the file, by region; they all go when the channel closes. */
    private final Map<Long, FileLock> held = new HashMap<>();
    /**
     * This JVM's live write locks of this queue, by token (values are the lock package's). Per table store, not per
     * JVM: tokens are unique within a queue only, so two queues of one JVM may hand out the same token.
     */
    private final ConcurrentMap<Long, Object> liveWriteLocks = new ConcurrentHashMap<>();
    /** This JVM's line of writers waiting for the write lock (the lock package's), made by the first that waits. */
    private final AtomicReference<Object> writeLockLine = new AtomicReference<>();
    private int processSlot = -1;
    private FileLock processLock;
    private Object key;
    private int references;
    /** The queues among {@link #references} that write: only they keep another writer from shrinking files. */
    private int writers;

    private TableStore(Path path, FileChannel channel, boolean writable) throws IOException {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        TableStoreHeaders.Header header = TableStoreHeaders.validate(path, channel);
        this.slotCount = header.slotCount();
        this.calendar = header.calendar();
        this.asyncBuffer = header.async();
        this.openedVersion = header.version();
        long fullSize = TableStoreDescriptor.fileSize(slotCount);
        if (writable && channel.size() < fullSize) {
            // The process records stay sparse (each process writes its own through this channel); only the
            // file's length is set here, by writing its last byte, which no record uses before slot 4095's.
            channel.write(ByteBuffer.allocate(1), fullSize - 1);
        }
        long mapped = Math.min(channel.size(), fullSize);
        this.hasProcessRecords = mapped == fullSize;
        this.memory = channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, mapped, arena);
    }

    /**
     * Opens (creating it when the queue is writable and has none) the table store of a queue directory, shared
     * with any other queue of this JVM on the same directory.
     */
    public static TableStore open(Path directory, boolean readOnly, RollCycle rollCycle, long nowMillis,
                                  FilePermissions permissions) {
        return open(directory, readOnly, CycleCalendar.of(rollCycle), nowMillis, permissions);
    }

    /**
     * Opens (creating when writable and absent) the table store of a queue.
     *
     * @param calendar what a new table store is created with; an existing one keeps its own ({@link #calendar()})
     */
    public static TableStore open(Path directory, boolean readOnly, CycleCalendar calendar, long nowMillis,
                                  FilePermissions permissions) {
        return open(directory, readOnly, calendar, AsyncBufferConfig.NONE, nowMillis, permissions);
    }

    /**
     * Opens (creating when writable and absent) the table store of a queue.
     *
     * @param calendar what a new table store is created with; an existing one keeps its own ({@link #calendar()})
     * @param async    the async buffer a new table store is created with; an existing one keeps its own
     *                 ({@link #asyncBuffer()})
     */
    public static TableStore open(Path directory, boolean readOnly, CycleCalendar calendar, AsyncBufferConfig async,
                                  long nowMillis, FilePermissions permissions) {
        Path file = directory.resolve(TableStoreDescriptor.FILE_NAME).toAbsolutePath().normalize();
        synchronized (OPEN) {
            try {
                if (!readOnly && !Files.exists(file)) {
                    TableStoreHeaders.create(file, calendar, async, nowMillis, permissions);
                }
                // Keyed by the file itself (device and inode), so a second path to it (a link, a bind mount)
                // shares the channel instead of opening one whose close would drop this JVM's locks.
                Object key = identity(file);
                TableStore open = OPEN.get(key);
                if (open != null && (open.writable || readOnly)) {
                    open.references++;
                    open.writers += readOnly ? 0 : 1;
                    return open;
                }
                if (open != null) {
                    throw new QueueException("queue " + directory + " is open read-only in this JVM; close it before "
                            + "opening it for writing");
                }
                if (Files.exists(file) && !Files.isRegularFile(file)) {
                    throw new CorruptQueueException(file, 0, "expected the queue's table store, a regular file, "
                            + "found a FIFO, device or directory under that name; refusing to open it");
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
                        if (store.openedVersion == TableStoreDescriptor.FORMAT_VERSION_1) {
                            store.upgradeFromVersion1();
                        }
                        store.claimProcessSlot();
                    } catch (RuntimeException e) {
                        store.arena.close();
                        channel.close();
                        throw e;
                    }
                }
                store.key = key;
                store.references = 1;
                store.writers = readOnly ? 0 : 1;
                OPEN.put(key, store);
                return store;
            } catch (NoSuchFileException e) {
                throw new QueueException("queue " + directory + " has no table store " + TableStoreDescriptor.FILE_NAME
                        + (readOnly ? "; a read-only queue must already exist" : ""), e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the table store " + file + ": " + Failures.describe(e), e);
            }
        }
    }

    private static Object identity(Path file) throws IOException {
        Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        return key != null ? key : file.toRealPath();
    }

    public Path path() {
        return path;
    }

    /**
     * Fails when the table store this queue has open is no longer the file at its path: its directory was deleted
     * (and perhaps made again, with another queue) while the queue was open. Cycle files are found by path, so a
     * roll would then create files beside a table store whose lock word nobody else sees. Checked when rolling.
     */
    public void requireStillInPlace() {
        Object onDisk;
        try {
            onDisk = identity(path);
        } catch (IOException e) {
            onDisk = null;
        }
        if (!key.equals(onDisk)) {
            throw new QueueException("the table store " + path + " of this open queue was deleted"
                    + (onDisk == null ? "" : " and another one made in its place") + " while the queue was open; "
                    + "nothing was written. Close the queue and open it again");
        }
    }

    /** This JVM's live write locks of this queue by token, for telling a live holder of this JVM from a dead one. */
    public ConcurrentMap<Long, Object> liveWriteLocks() {
        return liveWriteLocks;
    }

    /** Where this JVM keeps its line of writers waiting for this queue's write lock. */
    public AtomicReference<Object> writeLockLine() {
        return writeLockLine;
    }

    public boolean writable() {
        return writable;
    }

    /** The roll cycle the queue was created with. */
    public RollCycle rollCycle() {
        return calendar.rollCycle();
    }

    /** When the queue's cycles begin, as its table store was created. */
    public CycleCalendar calendar() {
        return calendar;
    }

    /** Named-tailer slots the file has. */
    /** The async buffer the queue was created with, or {@link AsyncBufferConfig#NONE}. */
    public AsyncBufferConfig asyncBuffer() {
        return asyncBuffer;
    }

    public int slotCount() {
        return slotCount;
    }

    /** The whole file, mapped: read and written only through {@link Memory} at descriptor offsets. */
    public MemorySegment memory() {
        return memory;
    }

    // ---- process slots (docs/file-format.md, "Locks and liveness") --------------------------------------

    /**
     * Frees the write lock of a holder known to be dead, counting that as a take in the write generation first
     * (docs/file-format.md, "Appending"): the dead holder may have published a record it never moved the hints past,
     * and an appender must not take the end for its own. Done while the dead token still holds the lock, so no live
     * holder advances the generation meanwhile.
     */
    private boolean releaseDeadHoldersLock(long owner) {
        long generation = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_GENERATION_OFFSET);
        Memory.putLongVolatile(memory, LockWordDescriptor.WRITE_GENERATION_OFFSET, generation + 1);
        return Memory.casLong(memory, LockWordDescriptor.WRITE_LOCK_OFFSET, owner, LockWordDescriptor.FREE);
    }

    /**
     * Takes the first free process slot: an OS lock this process keeps while it has the queue open for writing,
     * and that the kernel drops when the process dies, however it dies. A write-lock token naming this slot
     * left in the lock word belonged to the slot's previous process, which is therefore dead: it is cleared.
     */
    private void claimProcessSlot() throws IOException {
        for (int slot = 0; slot < LockWordDescriptor.PROCESS_SLOTS; slot++) {
            FileLock lock = channel.tryLock(LockWordDescriptor.processLockRegion(slot), 1, false);
            if (lock != null) {
                processSlot = slot;
                processLock = lock;
                writeProcessRecord(slot);
                raiseProcessSlotsUsed(slot + 1);
                long owner = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
                if (owner != LockWordDescriptor.FREE && LockWordDescriptor.processSlot(owner) == slot
                        && releaseDeadHoldersLock(owner)) {
                    Log.info(TableStore.class, "released the write lock of {0} left by a process that died holding it "
                            + "(process slot {1})", path, String.valueOf(slot));
                }
                return;
            }
        }
        throw new QueueException("queue " + path.getParent() + " is open for writing in "
                + LockWordDescriptor.PROCESS_SLOTS + " processes already, the most it allows");
    }

    /**
     * Says who holds the slot, for messages that name a write lock's holder. Written through the channel, so that
     * a full disk is an IOException here rather than a fault on a sparse page of the mapping.
     */
    private void writeProcessRecord(int slot) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(TableStoreDescriptor.PROCESS_RECORD_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        record.putLong((int) TableStoreDescriptor.PROCESS_PID, ProcessIdentity.pid());
        record.putLong((int) TableStoreDescriptor.PROCESS_CLAIMED_MILLIS, System.currentTimeMillis());
        byte[] host = utf8Prefix(ProcessIdentity.hostName(), TableStoreDescriptor.PROCESS_HOST_CAPACITY);
        record.putInt((int) TableStoreDescriptor.PROCESS_HOST_LENGTH, host.length);
        record.put((int) TableStoreDescriptor.PROCESS_HOST, host);
        long offset = TableStoreDescriptor.processRecordOffset(slotCount, slot);
        while (record.hasRemaining()) {
            channel.write(record, offset + record.position());
        }
    }

    /** The longest prefix of {@code text} whose UTF-8 fits {@code capacity} bytes, cut between characters. */
    private static byte[] utf8Prefix(String text, int capacity) {
        String cut = text;
        byte[] bytes = cut.getBytes(StandardCharsets.UTF_8);
        while (bytes.length > capacity) {
            cut = cut.substring(0, cut.offsetByCodePoints(cut.length(), -1));
            bytes = cut.getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }

    /** The slots held by live processes now, each with its record's pid (-1 if none) and host ("" if none). */
    public List<WriterProcess> writerProcesses() {
        long used = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        long probed = used <= 0 ? LockWordDescriptor.PROCESS_SLOTS : Math.min(used, LockWordDescriptor.PROCESS_SLOTS);
        long owner = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
        List<WriterProcess> writers = new ArrayList<>();
        for (int slot = 0; slot < probed; slot++) {
            if (slot == processSlot || isProcessAlive(slot)) {
                boolean holds = owner != LockWordDescriptor.FREE && LockWordDescriptor.processSlot(owner) == slot;
                long pid = -1;
                String host = "";
                if (hasProcessRecords) {
                    long offset = TableStoreDescriptor.processRecordOffset(slotCount, slot);
                    int length = Memory.getInt(memory, offset + TableStoreDescriptor.PROCESS_HOST_LENGTH);
                    pid = Memory.getLong(memory, offset + TableStoreDescriptor.PROCESS_PID);
                    if (pid > 0 && length >= 0 && length <= TableStoreDescriptor.PROCESS_HOST_CAPACITY) {
                        host = new String(memory.asSlice(offset + TableStoreDescriptor.PROCESS_HOST, length)
                                .toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                    } else {
                        pid = -1;
                    }
                }
                writers.add(new WriterProcess(slot, pid, host, holds));
            }
        }
        return writers;
    }

    /**
     * Who holds (or last held) a process slot, for messages: "pid 123 on host-a", or only the slot where the file
     * has no process records (a version 1 file opened read-only).
     */
    public String describeProcess(int slot) {
        if (slot < 0 || slot >= LockWordDescriptor.PROCESS_SLOTS) {
            return "no process (slot " + slot + ")";
        }
        if (!hasProcessRecords) {
            return "process slot " + slot;
        }
        long offset = TableStoreDescriptor.processRecordOffset(slotCount, slot);
        long pid = Memory.getLong(memory, offset + TableStoreDescriptor.PROCESS_PID);
        int length = Memory.getInt(memory, offset + TableStoreDescriptor.PROCESS_HOST_LENGTH);
        if (pid <= 0 || length < 0 || length > TableStoreDescriptor.PROCESS_HOST_CAPACITY) {
            return "process slot " + slot;
        }
        byte[] host = memory.asSlice(offset + TableStoreDescriptor.PROCESS_HOST, length)
                .toArray(ValueLayout.JAVA_BYTE);
        return "pid " + pid + " on " + new String(host, StandardCharsets.UTF_8) + " (process slot " + slot + ")";
    }

    /**
     * The serial for a new write-lock token (docs/file-format.md, "Locks and liveness"): an atomic add on the
     * table store's counter, so no two appenders of any process on the queue get the same one.
     */
    public long nextTokenSerial() {
        return Memory.getAndAddLong(memory, TableStoreDescriptor.TOKEN_SERIAL_OFFSET, 1);
    }

    /**
     * A version 1 table store (before process records and token serials) becomes version 2 when a writer of this
     * version first opens it: its file was lengthened in the constructor. A version 1 token left in the lock word
     * by a live writer of an older cq would be misread, so that is refused; a dead one's is cleared.
     */
    private void upgradeFromVersion1() {
        underLock(TableStoreDescriptor.SLOT_ALLOCATION_LOCK, "process slots", () -> {
            if (Memory.getIntVolatile(memory, TableStoreDescriptor.FORMAT_VERSION_OFFSET)
                    != TableStoreDescriptor.FORMAT_VERSION_1) {
                return null;
            }
            long owner = Memory.getLongVolatile(memory, LockWordDescriptor.WRITE_LOCK_OFFSET);
            if (owner != LockWordDescriptor.FREE) {
                // Version 1 tokens: bits 24..39 hold the process slot + 1.
                int slot = (int) ((owner >>> 24) & 0xFFFF) - 1;
                if (isProcessAlive(slot)) {
                    throw new QueueException("queue " + path.getParent() + " is being written by an older cq "
                            + "(table store version 1, process slot " + slot + "); close it there before opening "
                            + "it with this one");
                }
                releaseDeadHoldersLock(owner);
            }
            Memory.putIntVolatile(memory, TableStoreDescriptor.FORMAT_VERSION_OFFSET,
                    TableStoreDescriptor.FORMAT_VERSION);
            Log.info(TableStore.class, "upgraded the table store {0} from version 1 to {1}", path,
                    String.valueOf(TableStoreDescriptor.FORMAT_VERSION));
            return null;
        });
    }

    private void raiseProcessSlotsUsed(long used) {
        long seen = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        while (seen < used && !Memory.casLong(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET, seen, used)) {
            seen = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        }
    }

    /** This process's slot, or -1 on a read-only table store. */
    public int processSlot() {
        return processSlot;
    }

    /** Whether the process holding a process slot is alive: its OS lock on the slot is still held. */
    public boolean isProcessAlive(int slot) {
        if (slot < 0 || slot >= LockWordDescriptor.PROCESS_SLOTS) {
            return false;
        }
        return isLockHeld(LockWordDescriptor.processLockRegion(slot), "process slot " + slot);
    }

    // ---- cycle range (docs/file-format.md, "Rolling") ---------------------------------------------------

    public long maxCycle() {
        return Memory.getLongAcquire(memory, TableStoreDescriptor.MAX_CYCLE_OFFSET);
    }

    public long minCycle() {
        return Memory.getLongAcquire(memory, TableStoreDescriptor.MIN_CYCLE_OFFSET);
    }

    /** Under the write lock, after the cycle's file exists and the previous cycle is marked finished. */
    public void publishCycle(long cycle) {
        if (cycle > maxCycle()) {
            Memory.putLongRelease(memory, TableStoreDescriptor.MAX_CYCLE_OFFSET, cycle);
        }
        long min = minCycle();
        if (min == NO_CYCLE || cycle < min) {
            Memory.putLongRelease(memory, TableStoreDescriptor.MIN_CYCLE_OFFSET, cycle);
        }
    }

    /**
     * Under the write lock, by a repair only: sets the cycle range to what the directory holds, where a newest cycle
     * whose file is gone would make every writer refuse the queue ({@code NO_CYCLE} twice: no cycle files at all).
     */
    public void resetCycleRange(long minCycle, long maxCycle) {
        Memory.putLongRelease(memory, TableStoreDescriptor.MIN_CYCLE_OFFSET, minCycle);
        Memory.putLongRelease(memory, TableStoreDescriptor.MAX_CYCLE_OFFSET, maxCycle);
    }

    /** How many times a closing last writer has shrunk the newest cycle file; read by appenders each append. */
    public long shrinks() {
        return Memory.getLongAcquire(memory, TableStoreDescriptor.SHRINKS_OFFSET);
    }

    /** Under the write lock, after a closing last writer shrank the newest cycle file. */
    public void countShrink() {
        Memory.putLongRelease(memory, TableStoreDescriptor.SHRINKS_OFFSET, shrinks() + 1);
    }

    /**
     * Whether this JVM's queues on the file are the only writers: no other process holds a process slot, and no
     * other queue of this JVM shares the table store. Probes every slot: for closing, not for appending.
     */
    public boolean isOnlyWriter() {
        synchronized (OPEN) {
            if (writers > 1) {
                return false;
            }
        }
        long used = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        long probed = used <= 0 ? LockWordDescriptor.PROCESS_SLOTS : Math.min(used, LockWordDescriptor.PROCESS_SLOTS);
        for (int slot = 0; slot < probed; slot++) {
            if (slot != processSlot && isProcessAlive(slot)) {
                return false;
            }
        }
        return true;
    }

    /** Under the write lock, after retention deleted the oldest cycles' files. */
    public void publishMinCycle(long cycle) {
        Memory.putLongRelease(memory, TableStoreDescriptor.MIN_CYCLE_OFFSET, cycle);
    }

    // ---- record locks on the file, for the named-tailer slots -------------------------------------------

    /**
     * Runs an action while holding the lock of {@code region} (shared on a read-only channel, which cannot hold an
     * exclusive lock), so claims and probes in different processes never interleave.
     */
    public <T> T underLock(long region, String what, Supplier<T> action) {
        try (FileLock ignored = channel.lock(region, 1, !writable)) {
            return action.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the " + what + " of " + path, e);
        }
    }

    /**
     * Takes the lock of {@code region} for this JVM until {@link #unlock(long)}; false when another process (or
     * another owner in this one) holds it.
     */
    public synchronized boolean tryHold(long region) {
        if (held.containsKey(region)) {
            return false;
        }
        FileLock lock;
        try {
            lock = channel.tryLock(region, 1, false);
        } catch (OverlappingFileLockException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock byte " + region + " of " + path, e);
        }
        if (lock == null) {
            return false;
        }
        held.put(region, lock);
        return true;
    }

    /** Lets go of a lock taken with {@link #tryHold(long)}; false when this JVM did not hold it. */
    public synchronized boolean unlock(long region) {
        FileLock lock = held.remove(region);
        if (lock == null) {
            return false;
        }
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unlock byte " + region + " of " + path, e);
        }
        return true;
    }

    /** Whether this JVM holds the lock of {@code region} through {@link #tryHold(long)}. */
    public synchronized boolean isLockHeldHere(long region) {
        return held.containsKey(region);
    }

    /**
     * Whether some process holds the record lock on a byte: this JVM through {@link #tryHold(long)}, or another
     * one, found by a probe that lets go at once. A shared probe works on a read-only channel too; either kind
     * fails while a live holder has the exclusive lock.
     */
    public boolean isLockHeld(long region, String what) {
        synchronized (this) {
            if (held.containsKey(region)) {
                return true;
            }
        }
        try (FileLock probe = channel.tryLock(region, 1, !writable)) {
            return probe == null;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe the lock of " + what + " of " + path, e);
        }
    }

    /** Forces the table store's pages (named tailer positions, cycle range) to storage. */
    public void force() {
        if (writable) {
            memory.force();
        }
    }

    /** Gives up a queue's share; the JVM's last share unmaps the file and drops its locks. */
    public void release(boolean writer) {
        // All under OPEN: a new open of the same file must not get a channel while this one is being closed,
        // since closing it drops every record lock this process holds on the file.
        synchronized (OPEN) {
            writers -= writer ? 1 : 0;
            if (--references > 0) {
                return;
            }
            OPEN.remove(key);
            synchronized (this) {
                held.clear();
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
