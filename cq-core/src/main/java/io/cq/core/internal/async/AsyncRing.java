package io.cq.core.internal.async;

import io.cq.core.CorruptQueueException;
import io.cq.core.QueueException;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.lock.WriteLockWord;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.os.MemoryAdvice;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.table.AsyncBufferConfig;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * An async queue's buffer: the mapped ring of records in front of the queue (layout in {@link AsyncRingDescriptor},
 * protocol in docs/file-format.md, "Async buffer"). Writers add records while holding the buffer's lock word; one
 * drainer per machine copies them into the queue in order; tailers read the records not drained yet, checking
 * afterwards that no writer reused their bytes meanwhile. Shared by every queue of this JVM on the same table store;
 * thread-safe.
 */
public final class AsyncRing {
    /** This JVM's open buffers by file, shared the way table stores are. */
    private static final Map<Path, AsyncRing> OPEN = new HashMap<>();

    private final Path path;
    private final TableStore store;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment header;
    private final MemorySegment records;
    private final long capacity;
    private final boolean writable;
    /** This ring's line of writers of this JVM waiting for its lock word (WriteLockWord's). */
    private final AtomicReference<Object> lockLine = new AtomicReference<>();
    private int references;
    /** What touching each page read, kept so that the reads are not optimised away. */
    @SuppressWarnings("unused")
    private long touched;

    private AsyncRing(Path path, TableStore store, FileChannel channel, long capacity, boolean writable)
            throws IOException {
        this.path = path;
        this.store = store;
        this.capacity = capacity;
        this.writable = writable;
        MemorySegment mapped = channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, AsyncRingDescriptor.fileSize(capacity), arena);
        this.header = mapped.asSlice(0, AsyncRingDescriptor.RECORDS);
        this.records = mapped.asSlice(AsyncRingDescriptor.RECORDS, capacity);
    }

    /**
     * Opens the buffer of an async queue, creating it (its blocks allocated, so no write to it can fault on a full
     * disk) when none exists and this process may write. A new buffer starts after {@code lastIndex}, the queue's
     * last excerpt. Returns null for a reader that finds no buffer: then nothing was written since the last one was
     * drained and removed.
     */
    public static AsyncRing open(TableStore store, boolean writable, FilePermissions permissions,
                                 LongSupplier lastIndex) {
        AsyncBufferConfig config = store.asyncBuffer();
        Path path = AsyncRingFile.pathOf(config);
        synchronized (OPEN) {
            AsyncRing open = OPEN.get(path);
            if (open != null && (open.writable || !writable)) {
                open.references++;
                return open;
            }
            if (open != null) {
                throw new QueueException("the async buffer " + path + " is open read-only in this JVM; close that "
                        + "queue before opening it for writing");
            }
            AsyncRing ring = store.locks().underLock(TableStoreDescriptor.ASYNC_BUFFER_FILE_LOCK, "async buffer file",
                    () -> openLocked(path, store, config, writable, permissions, lastIndex));
            if (ring != null) {
                ring.references = 1;
                OPEN.put(path, ring);
            }
            return ring;
        }
    }

    private static AsyncRing openLocked(Path path, TableStore store, AsyncBufferConfig config, boolean writable,
                                        FilePermissions permissions, LongSupplier lastIndex) {
        long capacity = config.size();
        try {
            boolean created = AsyncRingFile.createIfMissing(path, AsyncRingDescriptor.fileSize(capacity), writable,
                    permissions);
            try (FileChannel channel = AsyncRingFile.open(path, store, capacity, writable)) {
                AsyncRing ring = new AsyncRing(path, store, channel, capacity, writable);
                ring.mapEveryPage(created);
                if (created) {
                    ring.initialize(config.queueId(), lastIndex.getAsLong());
                } else {
                    ring.validate(config.queueId());
                }
                return ring;
            }
        } catch (NoSuchFileException e) {
            if (!writable) {
                return null;
            }
            throw AsyncRingFile.cannotOpen(path, store, e);
        } catch (IOException e) {
            throw AsyncRingFile.cannotOpen(path, store, e);
        }
    }

    /**
     * Maps every page of the buffer into this process now, writable where it may write: a page first touched by an
     * append would fault, and a fault waits for the process's memory-map lock, which a thread stalled on storage
     * (the drainer's own fault on a queue page under writeback) can hold for milliseconds.
     */
    private void mapEveryPage(boolean created) {
        // The records as mapped (capacity bytes): no reinterpret, which is restricted and would need native access.
        MemorySegment all = records;
        if (writable && NativeAccess.canReserveBlocks()
                && MemoryAdvice.populateForWrite(header) == MemoryAdvice.Populated.DONE
                && MemoryAdvice.populateForWrite(all) == MemoryAdvice.Populated.DONE) {
            return;
        }
        if (writable && created) {
            all.fill((byte) 0); // nobody else has it yet: writing what it holds already maps each page writable
            return;
        }
        long sum = 0;
        for (long page = 0; page < capacity; page += 4096) {
            sum += all.get(ValueLayout.JAVA_BYTE, page);
        }
        touched = sum;
    }

    private void initialize(long queueId, long lastIndex) {
        Memory.putLong(header, AsyncRingDescriptor.CAPACITY_OFFSET, capacity);
        Memory.putLong(header, AsyncRingDescriptor.QUEUE_ID_OFFSET, queueId);
        Memory.putInt(header, AsyncRingDescriptor.FORMAT_VERSION_OFFSET, AsyncRingDescriptor.FORMAT_VERSION);
        Memory.putLong(header, AsyncRingDescriptor.LAST_INDEX_OFFSET, lastIndex);
        Memory.putLong(header, AsyncRingDescriptor.DRAINED_INDEX_OFFSET, lastIndex);
        Memory.putLongRelease(header, AsyncRingDescriptor.MAGIC_OFFSET, AsyncRingDescriptor.MAGIC);
    }

    private void validate(long queueId) {
        long magic = Memory.getLongAcquire(header, AsyncRingDescriptor.MAGIC_OFFSET);
        if (magic != AsyncRingDescriptor.MAGIC
                || Memory.getInt(header, AsyncRingDescriptor.FORMAT_VERSION_OFFSET)
                        != AsyncRingDescriptor.FORMAT_VERSION
                || Memory.getLong(header, AsyncRingDescriptor.CAPACITY_OFFSET) != capacity
                || Memory.getLong(header, AsyncRingDescriptor.QUEUE_ID_OFFSET) != queueId) {
            throw new CorruptQueueException(path, 0, "not the async buffer of queue " + store.path().getParent()
                    + " (its magic, version, capacity or queue id differ from what the table store names). Stop every "
                    + "process of the queue and delete the file: what it held that was not drained is lost");
        }
    }

    public Path path() {
        return path;
    }

    /** The word writers hold while adding a record: in the buffer, so taking it never dirties a page on disk. */
    public WriteLockWord lockWord() {
        return new WriteLockWord(store, header, AsyncRingDescriptor.LOCK_OFFSET, lockLine);
    }

    public long capacity() {
        return capacity;
    }

    /** The largest excerpt a record takes. */
    public long maxExcerpt() {
        return AsyncRingDescriptor.maxExcerpt(capacity);
    }

    // ---- the header words --------------------------------------------------------------------------------------

    public long tail() {
        return Memory.getLongAcquire(header, AsyncRingDescriptor.TAIL_OFFSET);
    }

    public long head() {
        return Memory.getLongAcquire(header, AsyncRingDescriptor.HEAD_OFFSET);
    }

    /** Index of the last record added; a writer that took the lock over from a dead one repairs it first. */
    public long lastIndex() {
        return Memory.getLongAcquire(header, AsyncRingDescriptor.LAST_INDEX_OFFSET);
    }

    private long reuseLimit() {
        return Memory.getLongVolatile(header, AsyncRingDescriptor.REUSE_LIMIT_OFFSET);
    }

    /** Reads the drainer's progress consistently (a seqlock: retried while the drainer changes it). */
    public void readDrained(DrainState into) {
        while (true) {
            long version = Memory.getLongAcquire(header, AsyncRingDescriptor.DRAIN_VERSION_OFFSET);
            if ((version & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            long index = Memory.getLong(header, AsyncRingDescriptor.DRAINED_INDEX_OFFSET);
            long drained = Memory.getLong(header, AsyncRingDescriptor.DRAINED_POSITION_OFFSET);
            long next = Memory.getLong(header, AsyncRingDescriptor.NEXT_POSITION_OFFSET);
            VarHandle.acquireFence();
            if (Memory.getLong(header, AsyncRingDescriptor.DRAIN_VERSION_OFFSET) == version) {
                into.drainedIndex = index;
                into.drainedPosition = drained;
                into.nextPosition = next;
                return;
            }
        }
    }

    /** The drainer's progress, as {@link #readDrained(DrainState)} reads it. Mutable, reused by its owner. */
    public static final class DrainState {
        public long drainedIndex;
        public long drainedPosition;
        public long nextPosition;
    }

    /** By the drainer only: records what it drained (or, recovering, where it goes on). */
    public void writeDrained(long drainedIndex, long drainedPosition, long nextPosition) {
        long version = Memory.getLong(header, AsyncRingDescriptor.DRAIN_VERSION_OFFSET);
        Memory.putLongVolatile(header, AsyncRingDescriptor.DRAIN_VERSION_OFFSET, version + 1);
        VarHandle.storeStoreFence();
        Memory.putLong(header, AsyncRingDescriptor.DRAINED_INDEX_OFFSET, drainedIndex);
        Memory.putLong(header, AsyncRingDescriptor.DRAINED_POSITION_OFFSET, drainedPosition);
        Memory.putLong(header, AsyncRingDescriptor.NEXT_POSITION_OFFSET, nextPosition);
        Memory.putLongRelease(header, AsyncRingDescriptor.DRAIN_VERSION_OFFSET, version + 2);
    }

    /** By the drainer only, once the records below {@code position} are in the queue: writers may reuse them. */
    public void freeUpTo(long position) {
        Memory.putLongRelease(header, AsyncRingDescriptor.HEAD_OFFSET, position);
    }

    // ---- records -------------------------------------------------------------------------------------------

    private long offset(long position) {
        return position % capacity;
    }

    /** The length word of the record at {@code position}: its excerpt's length, or {@code PADDING}. */
    public int lengthAt(long position) {
        return Memory.getInt(records, offset(position) + AsyncRingDescriptor.RECORD_LENGTH);
    }

    public long indexAt(long position) {
        return Memory.getLong(records, offset(position) + AsyncRingDescriptor.RECORD_INDEX);
    }

    public long millisAt(long position) {
        return Memory.getLong(records, offset(position) + AsyncRingDescriptor.RECORD_MILLIS);
    }

    /** Where the excerpt of the record at {@code position} starts in {@link #records()}. */
    public long excerptOffset(long position) {
        return offset(position) + AsyncRingDescriptor.RECORD_HEADER;
    }

    public MemorySegment records() {
        return records;
    }

    /** The position of the first record of the next lap: where a padding record sends readers. */
    public long nextLap(long position) {
        return position - offset(position) + capacity;
    }

    /** The position after the record at {@code position}, whose excerpt is {@code length} bytes. */
    public long after(long position, int length) {
        return length == AsyncRingDescriptor.PADDING ? nextLap(position)
                : position + AsyncRingDescriptor.recordSize(length);
    }

    /**
     * Whether a reader that copied the record at {@code position} got its bytes: false when a writer may have reused
     * them meanwhile (the record was drained, so the queue has it). Call after the copy.
     */
    public boolean stillIntact(long position) {
        VarHandle.acquireFence();
        return reuseLimit() <= position + capacity;
    }

    // ---- adding, by the holder of the buffer's lock ----------------------------------------------------------

    /**
     * Where the next record of {@code recordSize} bytes goes, and how far the buffer must be free for it (a record
     * that would cross the end of the lap starts the next one).
     */
    public long placeFor(long recordSize) {
        long tail = Memory.getLong(header, AsyncRingDescriptor.TAIL_OFFSET);
        return offset(tail) + recordSize > capacity ? nextLap(tail) : tail;
    }

    /** Whether the drainer freed enough for a record of {@code recordSize} bytes at {@code place}. */
    public boolean hasRoom(long place, long recordSize) {
        return place + recordSize - head() <= capacity;
    }

    /**
     * Adds a record at {@code place} ({@link #placeFor(long)}, with {@link #hasRoom(long, long) room}): announces the
     * bytes it reuses, writes the padding and the record, then publishes it by moving the tail.
     */
    public void add(long place, long index, long millis, MemorySegment excerpt, long length) {
        long tail = Memory.getLong(header, AsyncRingDescriptor.TAIL_OFFSET);
        long end = place + AsyncRingDescriptor.recordSize(length);
        Memory.putLongVolatile(header, AsyncRingDescriptor.REUSE_LIMIT_OFFSET, end);
        // Readers check the limit after copying: it must be visible before any byte it announces is changed.
        VarHandle.storeStoreFence();
        if (place != tail) {
            Memory.putInt(records, offset(tail) + AsyncRingDescriptor.RECORD_LENGTH, AsyncRingDescriptor.PADDING);
        }
        long at = offset(place);
        Memory.putInt(records, at + AsyncRingDescriptor.RECORD_LENGTH, (int) length);
        Memory.putInt(records, at + 4, 0);
        Memory.putLong(records, at + AsyncRingDescriptor.RECORD_INDEX, index);
        Memory.putLong(records, at + AsyncRingDescriptor.RECORD_MILLIS, millis);
        MemorySegment.copy(excerpt, 0, records, at + AsyncRingDescriptor.RECORD_HEADER, length);
        long padded = AsyncRingDescriptor.recordSize(length) - AsyncRingDescriptor.RECORD_HEADER;
        for (long pad = at + AsyncRingDescriptor.RECORD_HEADER + length; pad < at + AsyncRingDescriptor.RECORD_HEADER
                + padded; pad++) {
            records.set(ValueLayout.JAVA_BYTE, pad, (byte) 0);
        }
        Memory.putLongRelease(header, AsyncRingDescriptor.LAST_INDEX_OFFSET, index);
        Memory.putLongRelease(header, AsyncRingDescriptor.TAIL_OFFSET, end);
    }

    /**
     * By a writer that took the buffer's lock over from one that died: the dead one may have set the last index and
     * not moved the tail. The last index is that of the last record below the tail, found from the drained one.
     */
    public void repairLastIndex() {
        DrainState drained = new DrainState();
        readDrained(drained);
        long last = drained.drainedIndex;
        long tail = tail();
        for (long p = drained.nextPosition; p < tail; ) {
            int length = lengthAt(p);
            if (length != AsyncRingDescriptor.PADDING) {
                last = indexAt(p);
            }
            p = after(p, length);
        }
        Memory.putLongRelease(header, AsyncRingDescriptor.LAST_INDEX_OFFSET, last);
    }

    /** Whether every record added is in the queue. */
    public boolean isDrained() {
        return head() >= tail();
    }

    public TableStore tableStore() {
        return store;
    }

    /**
     * Gives up a queue's share; the JVM's last share unmaps the buffer and, when it is drained and no other process
     * has the queue open, deletes its file (a new one is made when the queue is next opened for writing).
     */
    public void release() {
        synchronized (OPEN) {
            if (--references > 0) {
                return;
            }
            OPEN.remove(path);
            try {
                if (writable) {
                    store.locks().underLock(TableStoreDescriptor.ASYNC_BUFFER_FILE_LOCK, "async buffer file", () -> {
                        if (isDrained() && store.isOnlyWriter()) {
                            AsyncRingFile.deleteQuietly(path);
                        }
                        return null;
                    });
                }
            } finally {
                arena.close();
            }
        }
    }
}
