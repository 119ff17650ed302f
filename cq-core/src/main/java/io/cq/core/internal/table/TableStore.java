package io.cq.core.internal.table;

import io.cq.core.CycleCalendar;
import io.cq.core.QueueException;
import io.cq.core.RollCycle;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.Log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The queue's table store, {@code metadata.cq4t} (layout in {@link TableStoreDescriptor}): its header and the cycle
 * range; its process slots ({@link ProcessSlots}) and record locks ({@link RecordLocks}). The write-lock word and the
 * named-tailer slots it holds are read and written by the lock package and {@code NamedTailerSlots} only.
 *
 * <p>One instance per file per JVM, shared by every queue opened on the directory ({@link TableStores}). Thread-safe.
 */
public final class TableStore {
    public static final long NO_CYCLE = -1;

    private final Path path;
    private final FileChannel channel;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    private final boolean writable;
    private final int slotCount;
    private final CycleCalendar calendar;
    private final AsyncBufferConfig asyncBuffer;
    private final ExcerptCodecs codecs;
    private final int openedVersion;
    private final RecordLocks locks;
    private final ProcessSlots slots;
    /**
     * This JVM's live write locks of this queue, by token (values are the lock package's). Per table store, not per
     * JVM: tokens are unique within a queue only, so two queues of one JVM may hand out the same token.
     */
    private final ConcurrentMap<Long, Object> liveWriteLocks = new ConcurrentHashMap<>();
    /** This JVM's line of writers waiting for the write lock (the lock package's), made by the first that waits. */
    private final AtomicReference<Object> writeLockLine = new AtomicReference<>();
    /** The file's identity (device and inode), by which {@link TableStores} shares it. */
    private final Object key;
    /** How many queues of this JVM have the file open; under {@link TableStores}' lock. */
    int references;
    /** The queues among {@link #references} that write: only they keep another writer from shrinking files. */
    int writers;

    TableStore(Path path, FileChannel channel, boolean writable, Object key) throws IOException {
        this.path = path;
        this.key = key;
        this.channel = channel;
        this.writable = writable;
        TableStoreHeaders.Header header = TableStoreHeaders.validate(path, channel);
        this.slotCount = header.slotCount();
        this.calendar = header.calendar();
        this.asyncBuffer = header.async();
        this.codecs = header.codecs();
        this.openedVersion = header.version();
        long fullSize = TableStoreDescriptor.fileSize(slotCount);
        if (writable && channel.size() < fullSize) {
            // The process records stay sparse (each process writes its own through this channel); only the
            // file's length is set here, by writing its last byte, which no record uses before slot 4095's.
            channel.write(ByteBuffer.allocate(1), fullSize - 1);
        }
        long mapped = Math.min(channel.size(), fullSize);
        this.memory = channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, mapped, arena);
        this.locks = new RecordLocks(path, channel, writable);
        // A read-only map of a version 1 file has no process records.
        this.slots = new ProcessSlots(path, channel, memory, slotCount, mapped == fullSize, locks);
    }

    public Path path() {
        return path;
    }

    Object key() {
        return key;
    }

    /**
     * Fails when the table store this queue has open is no longer the file at its path: its directory was deleted
     * (and perhaps made again, with another queue) while the queue was open. Cycle files are found by path, so a
     * roll would then create files beside a table store whose lock word nobody else sees. Checked when rolling.
     */
    public void requireStillInPlace() {
        Object onDisk;
        try {
            onDisk = TableStores.identity(path);
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

    // ---- process slots and write-lock tokens (docs/file-format.md, "Locks and liveness") ------------------

    /** The process slots, this process's among them. */
    public ProcessSlots processSlots() {
        return slots;
    }

    /** The record locks on the file: process slots, named-tailer slots, the async drain. */
    public RecordLocks locks() {
        return locks;
    }

    /** This process's slot, or -1 on a read-only table store. */
    public int processSlot() {
        return slots.slot();
    }

    /**
     * The serial for a new write-lock token (docs/file-format.md, "Locks and liveness"): an atomic add on the
     * table store's counter, so no two appenders of any process on the queue get the same one.
     */
    /** The excerpt codecs the queue was created with (docs/file-format.md, "Excerpt codecs"), without keys. */
    public ExcerptCodecs codecs() {
        return codecs;
    }

    /**
     * The serial of an encryption nonce, advanced by one: under the write lock only, so plain accesses on the lock's
     * own cache line, which its holder has anyway, and which the lock's release publishes to the next holder.
     */
    public long takeNonceSerial() {
        long serial = Memory.getLong(memory, CodecDescriptor.TABLE_NONCE_SERIAL_OFFSET);
        Memory.putLong(memory, CodecDescriptor.TABLE_NONCE_SERIAL_OFFSET, serial + 1);
        return serial;
    }

    public long nextTokenSerial() {
        return Memory.getAndAddLong(memory, TableStoreDescriptor.TOKEN_SERIAL_OFFSET, 1);
    }

    /** The format version the file had when this JVM opened it (1 until the lock package upgrades it). */
    public int openedVersion() {
        return openedVersion;
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
        return TableStores.writersInThisJvm(this) <= 1 && !slots.anotherIsAlive();
    }

    /** Under the write lock, after retention deleted the oldest cycles' files. */
    public void publishMinCycle(long cycle) {
        Memory.putLongRelease(memory, TableStoreDescriptor.MIN_CYCLE_OFFSET, cycle);
    }

    /** Forces the table store's pages (named tailer positions, cycle range) to storage. */
    public void force() {
        if (writable) {
            memory.force();
        }
    }

    /** Gives up a queue's share; the JVM's last share unmaps the file and drops its locks. */
    public void release(boolean writer) {
        TableStores.release(this, writer);
    }

    /** Unmaps the file and closes its channel, which drops every record lock of this process on it. */
    synchronized void close() {
        locks.forgetAll();
        slots.forget();
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
