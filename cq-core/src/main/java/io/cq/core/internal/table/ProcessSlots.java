package io.cq.core.internal.table;

import io.cq.core.QueueException;
import io.cq.core.WriterProcess;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.system.Strings;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process slots of a table store (docs/file-format.md, "Locks and liveness"): a process that opens the queue for
 * writing claims the first free slot, an OS lock it keeps until it closes the queue or dies, and writes its process
 * record (pid, host) for messages that name a lock's holder. Liveness is the lock, never the record. Thread-safe.
 */
public final class ProcessSlots {
    private final Path path;
    private final FileChannel channel;
    private final MemorySegment memory;
    private final int namedTailerSlots;
    /** Whether the file has process records (format version 2, or 1 upgraded): a read-only map of a v1 file not. */
    private final boolean hasRecords;
    private final RecordLocks locks;
    private volatile int claimed = -1;
    /** Kept so that the lock lasts as long as the channel; released with it. */
    private FileLock claimLock;

    ProcessSlots(Path path, FileChannel channel, MemorySegment memory, int namedTailerSlots, boolean hasRecords,
                 RecordLocks locks) {
        this.path = path;
        this.channel = channel;
        this.memory = memory;
        this.namedTailerSlots = namedTailerSlots;
        this.hasRecords = hasRecords;
        this.locks = locks;
    }

    /**
     * Takes the first free process slot and writes its record. A write-lock token naming the slot that is still in
     * the lock word belonged to the slot's previous process, which is therefore dead: the lock package clears it.
     */
    void claim() throws IOException {
        for (int slot = 0; slot < LockWordDescriptor.PROCESS_SLOTS; slot++) {
            FileLock lock = locks.tryLock(LockWordDescriptor.processLockRegion(slot));
            if (lock != null) {
                claimLock = lock;
                writeRecord(slot);
                raiseSlotsUsed(slot + 1);
                claimed = slot;
                return;
            }
        }
        throw new QueueException("queue " + path.getParent() + " is open for writing in "
                + LockWordDescriptor.PROCESS_SLOTS + " processes already, the most it allows");
    }

    /** This process's slot, or -1 where it has none (a read-only table store). */
    public int slot() {
        return claimed;
    }

    /** Whether the process holding a slot is alive: its OS lock on the slot is still held. */
    public boolean isAlive(int slot) {
        if (slot < 0 || slot >= LockWordDescriptor.PROCESS_SLOTS) {
            return false;
        }
        return locks.isHeld(LockWordDescriptor.processLockRegion(slot), "process slot " + slot);
    }

    /** Whether a live process other than this one holds a slot. Probes every slot ever used: not for appending. */
    boolean anotherIsAlive() {
        for (int slot = 0; slot < probedSlots(); slot++) {
            if (slot != claimed && isAlive(slot)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The slots held by live processes now, each with its record's pid (-1 if none) and host ("" if none), and
     * whether it holds the write lock: whether {@code lockSlot}, the slot the lock word names, is its.
     */
    public List<WriterProcess> writers(int lockSlot) {
        List<WriterProcess> writers = new ArrayList<>();
        for (int slot = 0; slot < probedSlots(); slot++) {
            if (slot == claimed || isAlive(slot)) {
                boolean holds = lockSlot == slot;
                Record record = record(slot);
                writers.add(record == null ? new WriterProcess(slot, -1, "", holds)
                        : new WriterProcess(slot, record.pid, record.host, holds));
            }
        }
        return writers;
    }

    /**
     * Who holds (or last held) a process slot, for messages: "pid 123 on host-a (process slot 0)", or only the slot
     * where the file has no record of it.
     */
    public String describe(int slot) {
        if (slot < 0 || slot >= LockWordDescriptor.PROCESS_SLOTS) {
            return "no process (slot " + slot + ")";
        }
        Record record = record(slot);
        return record == null ? "process slot " + slot
                : "pid " + record.pid + " on " + record.host + " (process slot " + slot + ")";
    }

    private record Record(long pid, String host) {
    }

    /** A slot's process record, or null where the file has none or it does not hold together. */
    private Record record(int slot) {
        if (!hasRecords) {
            return null;
        }
        long offset = TableStoreDescriptor.processRecordOffset(namedTailerSlots, slot);
        long pid = Memory.getLong(memory, offset + TableStoreDescriptor.PROCESS_PID);
        int length = Memory.getInt(memory, offset + TableStoreDescriptor.PROCESS_HOST_LENGTH);
        if (pid <= 0 || length < 0 || length > TableStoreDescriptor.PROCESS_HOST_CAPACITY) {
            return null;
        }
        byte[] host = memory.asSlice(offset + TableStoreDescriptor.PROCESS_HOST, length)
                .toArray(ValueLayout.JAVA_BYTE);
        return new Record(pid, new String(host, StandardCharsets.UTF_8));
    }

    /** Slots to probe: those ever claimed, where the file counts them; else every one. */
    private long probedSlots() {
        long used = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        return used <= 0 ? LockWordDescriptor.PROCESS_SLOTS : Math.min(used, LockWordDescriptor.PROCESS_SLOTS);
    }

    /**
     * Written through the channel, so that a full disk is an IOException here rather than a fault on a sparse page
     * of the mapping.
     */
    private void writeRecord(int slot) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(TableStoreDescriptor.PROCESS_RECORD_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        record.putLong((int) TableStoreDescriptor.PROCESS_PID, ProcessIdentity.pid());
        record.putLong((int) TableStoreDescriptor.PROCESS_CLAIMED_MILLIS, System.currentTimeMillis());
        byte[] host = Strings.truncateUtf8(ProcessIdentity.hostName(), TableStoreDescriptor.PROCESS_HOST_CAPACITY);
        record.putInt((int) TableStoreDescriptor.PROCESS_HOST_LENGTH, host.length);
        record.put((int) TableStoreDescriptor.PROCESS_HOST, host);
        long offset = TableStoreDescriptor.processRecordOffset(namedTailerSlots, slot);
        while (record.hasRemaining()) {
            channel.write(record, offset + record.position());
        }
    }

    private void raiseSlotsUsed(long used) {
        long seen = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        while (seen < used && !Memory.casLong(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET, seen, used)) {
            seen = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        }
    }

    /** The channel is about to close, which drops the slot's lock. */
    void forget() {
        claimLock = null;
    }
}
