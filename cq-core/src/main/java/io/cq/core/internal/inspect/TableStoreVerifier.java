package io.cq.core.internal.inspect;

import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.Memory;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Checks the bytes of the table store that the format keeps zero (docs/file-format.md, "Table store"): the
 * header's reserved ranges and what follows each of its strings, every byte of a named-tailer slot never used, the
 * bytes after a used slot's name, and every process record of a slot never claimed (from {@code processSlotsUsed}
 * on, when it is known) and after a claimed record's host name. Not the holder descriptions: a shorter one is
 * written over a longer one without zeroing what follows. A claim under way in another process writes a slot or
 * record before it publishes it, so a finding there is read again a moment later before it is reported.
 */
final class TableStoreVerifier {
    /** What is wrong where. */
    record Damage(long position, String description) {
    }

    private static final long[][] RESERVED = {
        {TableStoreDescriptor.CREATED_MILLIS_OFFSET + Long.BYTES, 128},
        {144, TableStoreDescriptor.MAX_CYCLE_OFFSET},
        {TableStoreDescriptor.ROLL_ZONE_OFFSET + TableStoreDescriptor.ROLL_ZONE_CAPACITY,
            TableStoreDescriptor.ASYNC_BUFFER_SIZE_OFFSET},
        {TableStoreDescriptor.ASYNC_DIRECTORY_OFFSET + TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY,
            TableStoreDescriptor.SLOTS_OFFSET},
    };

    /**
     * A version 3 table store (a queue with excerpt codecs) holds its codec flags, compression and threshold at the
     * start of the first range and its nonce serial at the start of the second (docs/file-format.md, "Excerpt
     * codecs"); the rest stays zero.
     */
    private static final long[][] RESERVED_WITH_CODECS = {
        {CodecDescriptor.TABLE_THRESHOLD_OFFSET + Integer.BYTES, 128},
        {CodecDescriptor.TABLE_NONCE_SERIAL_OFFSET + Long.BYTES, TableStoreDescriptor.MAX_CYCLE_OFFSET},
        RESERVED[2],
        RESERVED[3],
    };

    private final TableStore store;
    private final MemorySegment memory;
    private final List<Damage> findings = new ArrayList<>();

    TableStoreVerifier(TableStore store) {
        this.store = store;
        this.memory = store.memory();
    }

    List<Damage> verify() {
        boolean codecs = Memory.getInt(memory, TableStoreDescriptor.FORMAT_VERSION_OFFSET)
                == CodecDescriptor.TABLE_STORE_VERSION;
        for (long[] range : codecs ? RESERVED_WITH_CODECS : RESERVED) {
            requireZero(range[0], range[1], "a reserved range of the header (" + range[0] + " to " + range[1] + ")");
        }
        afterString(TableStoreDescriptor.ROLL_NAME_LENGTH_OFFSET, TableStoreDescriptor.ROLL_NAME_OFFSET,
                TableStoreDescriptor.ROLL_NAME_CAPACITY, "the roll cycle's name");
        afterString(TableStoreDescriptor.ROLL_ZONE_LENGTH_OFFSET, TableStoreDescriptor.ROLL_ZONE_OFFSET,
                TableStoreDescriptor.ROLL_ZONE_CAPACITY, "the roll time zone");
        afterString(TableStoreDescriptor.ASYNC_DIRECTORY_LENGTH_OFFSET, TableStoreDescriptor.ASYNC_DIRECTORY_OFFSET,
                TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY, "the async buffer's directory");
        for (int slot = 0; slot < store.slotCount(); slot++) {
            checkSlot(slot);
        }
        checkProcessRecords();
        return findings;
    }

    private void checkSlot(int slot) {
        long base = TableStoreDescriptor.slotOffset(slot);
        int state = Memory.getIntAcquire(memory, base + TableStoreDescriptor.SLOT_STATE);
        if (state == TableStoreDescriptor.SLOT_FREE) {
            long nonZero = firstNonZero(base, base + TableStoreDescriptor.SLOT_SIZE);
            if (nonZero >= 0 && settledNonZero(base, base + TableStoreDescriptor.SLOT_SIZE)
                    && Memory.getIntAcquire(memory, base + TableStoreDescriptor.SLOT_STATE)
                    == TableStoreDescriptor.SLOT_FREE) {
                damage(nonZero, "non-zero bytes at position " + nonZero + " in named-tailer slot " + slot
                        + ", which is free: a free slot was never used, and every byte of it is zero");
            }
        } else if (state == TableStoreDescriptor.SLOT_USED) {
            afterString(base + TableStoreDescriptor.SLOT_NAME_LENGTH, base + TableStoreDescriptor.SLOT_NAME,
                    TableStoreDescriptor.SLOT_NAME_CAPACITY, "the name of named-tailer slot " + slot);
        } else {
            damage(base + TableStoreDescriptor.SLOT_STATE, "named-tailer slot " + slot + " has state " + state
                    + ", neither free (0) nor used (1)");
        }
    }

    private void checkProcessRecords() {
        long first = TableStoreDescriptor.processRecordsOffset(store.slotCount());
        long used = Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET);
        for (int slot = 0; slot < LockWordDescriptor.PROCESS_SLOTS; slot++) {
            long base = first + (long) slot * TableStoreDescriptor.PROCESS_RECORD_SIZE;
            long end = base + TableStoreDescriptor.PROCESS_RECORD_SIZE;
            if (end > memory.byteSize()) {
                return; // a version 1 file, read-only: no process records
            }
            if (used <= 0 || slot < used) {
                afterString(base + TableStoreDescriptor.PROCESS_HOST_LENGTH, base + TableStoreDescriptor.PROCESS_HOST,
                        TableStoreDescriptor.PROCESS_HOST_CAPACITY, "the host name of process record " + slot);
                continue;
            }
            long nonZero = firstNonZero(base, end);
            if (nonZero >= 0 && settledNonZero(base, end)
                    && Memory.getLongVolatile(memory, TableStoreDescriptor.PROCESS_SLOTS_USED_OFFSET) <= slot) {
                damage(nonZero, "non-zero bytes at position " + nonZero + " in the record of process slot " + slot
                        + ", which was never claimed (processSlotsUsed is " + used + "): its bytes are zero");
            }
        }
    }

    /** After a string's {@code length} bytes, up to its capacity, the bytes are zero; the length must fit. */
    private void afterString(long lengthOffset, long offset, int capacity, String what) {
        int length = Memory.getInt(memory, lengthOffset);
        if (length < 0 || length > capacity) {
            damage(lengthOffset, "the length of " + what + " is " + length + ", out of range 0.." + capacity);
            return;
        }
        requireZero(offset + length, offset + capacity, "the unused part of " + what);
    }

    private void requireZero(long from, long to, String what) {
        long nonZero = firstNonZero(from, to);
        if (nonZero >= 0) {
            damage(nonZero, "non-zero bytes at position " + nonZero + " in " + what + ", which the format keeps zero");
        }
    }

    private long firstNonZero(long from, long to) {
        long end = Math.min(to, memory.byteSize());
        for (long at = from; at < end; at++) {
            if (memory.get(ValueLayout.JAVA_BYTE, at) != 0) {
                return at;
            }
        }
        return -1;
    }

    /** Still non-zero a moment later: not a claim that another process was making and publishes now. */
    private boolean settledNonZero(long from, long to) {
        LockSupport.parkNanos(20_000_000L);
        return firstNonZero(from, to) >= 0;
    }

    private void damage(long position, String description) {
        findings.add(new Damage(position, description));
    }
}
