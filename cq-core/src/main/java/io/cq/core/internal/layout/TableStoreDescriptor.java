package io.cq.core.internal.layout;

/**
 * Layout of the table store {@code metadata.cq4t} (docs/file-format.md, "Table store"). Little-endian.
 *
 * <pre>
 *    0 | magic "cq.table"             | 8
 *    8 | formatVersion | slotCount    | 4 + 4
 *   16 | rollLengthMillis             | 8
 *   24 | rollEpochOffsetMillis        | 8
 *   32 | sequenceBits  | nameLength   | 4 + 4
 *   40 | rollCycle name (24 bytes)    |
 *   64 | createdEpochMillis           | 8
 *  128 | write lock word              | 8   LockWordDescriptor
 *  136 | write generation             | 8   LockWordDescriptor#WRITE_GENERATION_OFFSET
 *  192 | maxCycle                     | 8   highest cycle that has a file, -1 = none
 *  200 | minCycle                     | 8   lowest cycle that has a file, -1 = none
 *  208 | shrinks                      | 8   times the newest cycle was shrunk by a closing last writer
 *  216 | processSlotsUsed             | 8   highest process slot ever claimed + 1 (0: unknown)
 *  224 | tokenSerial                  | 8   the next write-lock token's serial (LockWordDescriptor)
 *  232 | rollTimeMillisOfDay          | 4   time of day cycles begin at (CycleCalendar); 0 = midnight
 *  236 | rollZoneLength               | 4   0 = UTC
 *  240 | rollZone, its ZoneId, ASCII  | 64
 *  384 | asyncBufferSize              | 8   bytes of records in the async buffer; 0 = not an async queue
 *  392 | queueId                      | 8   random, set at creation of an async queue; names its buffer file
 *  400 | asyncDirectoryLength         | 4
 *  404 | asyncDirectory, UTF-8        | 512 where the async buffer file is (AsyncRingDescriptor)
 *      | (reserved up to 1024)        |     the lock and the cycle range sit on separate cache lines, so that
 *      |                              |     idle tailers reading the range do not slow appenders taking the lock
 * 1024 | named tailer slots: slotCount x 256 bytes
 *      | process records: 4096 x 64 bytes (format version 2; a version 1 file ends before them)
 * </pre>
 *
 * Named tailer slot:
 * <pre>
 *   +0  nextIndex (the next excerpt the tailer reads; -1 = from the start)   8
 *   +8  state (0 free, 1 used)                                               4
 *   +12 nameLength                                                           4
 *   +16 name, UTF-8                                                         64
 *   +80 holderLength                                                         4
 *   +84 holder description, UTF-8                                          172
 * </pre>
 *
 * Process record, one per process slot, written by the process that claims the slot (who holds it, for messages
 * naming a write lock's holder):
 * <pre>
 *   +0  pid                                                                  8
 *   +8  claimedEpochMillis                                                   8
 *   +16 hostLength                                                           4
 *   +20 host name, UTF-8                                                    44
 * </pre>
 *
 * Ownership is not kept in the file: it is an OS record lock on one byte at {@link #slotLockRegion(int)},
 * which the kernel drops when its process dies (see docs/file-format.md, "Locks and liveness").
 */
public final class TableStoreDescriptor {
    public static final String FILE_NAME = "metadata.cq4t";

    public static final long MAGIC = 0x656c6261742e7163L; // "cq.table" read little-endian
    public static final int FORMAT_VERSION = 2;
    /** The format before process records and token serials; upgraded in place by the first writer to open it. */
    public static final int FORMAT_VERSION_1 = 1;
    public static final int DEFAULT_SLOT_COUNT = 1024;
    /** The most named-tailer slots a table store may declare; their lock regions come before the processes'. */
    public static final int MAX_SLOT_COUNT = 1 << 16;

    public static final long MAGIC_OFFSET = 0;
    public static final long FORMAT_VERSION_OFFSET = 8;
    public static final long SLOT_COUNT_OFFSET = 12;
    public static final long ROLL_LENGTH_OFFSET = 16;
    public static final long ROLL_EPOCH_OFFSET = 24;
    public static final long SEQUENCE_BITS_OFFSET = 32;
    public static final long ROLL_NAME_LENGTH_OFFSET = 36;
    public static final long ROLL_NAME_OFFSET = 40;
    public static final int ROLL_NAME_CAPACITY = 24;
    public static final long CREATED_MILLIS_OFFSET = 64;
    public static final long MAX_CYCLE_OFFSET = 192;
    public static final long MIN_CYCLE_OFFSET = 200;
    /**
     * How many times a last writer has shrunk the newest cycle file (docs/file-format.md, "Reserving and
     * shrinking"); 0 in a table store written before there was shrinking, which reads the same.
     */
    public static final long SHRINKS_OFFSET = 208;
    /**
     * One more than the highest process slot ever claimed on this table store, so that looking for other writers
     * probes only slots that may be held; 0 in a table store written before it was kept: then every slot is probed.
     */
    public static final long PROCESS_SLOTS_USED_OFFSET = 216;
    /** The serial of the next write-lock token, advanced with an atomic add by whoever makes one. */
    public static final long TOKEN_SERIAL_OFFSET = 224;
    /**
     * When cycles begin: written when the table store is created and never changed, so every process agrees. A
     * table store from before roll times has zeros here: midnight UTC, which is what it was created with.
     */
    public static final long ROLL_TIME_MILLIS_OFFSET = 232;
    public static final long ROLL_ZONE_LENGTH_OFFSET = 236;
    public static final long ROLL_ZONE_OFFSET = 240;
    public static final int ROLL_ZONE_CAPACITY = 64;
    /**
     * An async queue's buffer (docs/file-format.md, "Async buffer"): written when the table store is created and never
     * changed, so every process finds the same buffer. Zeros in a queue created without async mode.
     */
    public static final long ASYNC_BUFFER_SIZE_OFFSET = 384;
    public static final long QUEUE_ID_OFFSET = 392;
    public static final long ASYNC_DIRECTORY_LENGTH_OFFSET = 400;
    public static final long ASYNC_DIRECTORY_OFFSET = 404;
    public static final int ASYNC_DIRECTORY_CAPACITY = 512;

    public static final int PROCESS_RECORD_SIZE = 64;
    public static final long PROCESS_PID = 0;
    public static final long PROCESS_CLAIMED_MILLIS = 8;
    public static final long PROCESS_HOST_LENGTH = 16;
    public static final long PROCESS_HOST = 20;
    public static final int PROCESS_HOST_CAPACITY = 44;

    public static final long SLOTS_OFFSET = 1024;
    public static final int SLOT_SIZE = 256;
    public static final long SLOT_NEXT_INDEX = 0;
    public static final long SLOT_STATE = 8;
    public static final long SLOT_NAME_LENGTH = 12;
    public static final long SLOT_NAME = 16;
    public static final int SLOT_NAME_CAPACITY = 64;
    public static final long SLOT_HOLDER_LENGTH = 80;
    public static final long SLOT_HOLDER = 84;
    public static final int SLOT_HOLDER_CAPACITY = 172;

    public static final int SLOT_FREE = 0;
    public static final int SLOT_USED = 1;

    /** Lock regions lie far beyond the file's end: record locks may cover bytes a file does not have. */
    public static final long LOCK_REGION_BASE = 1L << 40;
    /** Held (exclusively, blocking) while a slot is looked up or claimed. */
    public static final long SLOT_ALLOCATION_LOCK = LOCK_REGION_BASE;
    /** Held (exclusively) by the one process that drains an async queue's buffer into the queue. */
    public static final long ASYNC_DRAIN_LOCK = LOCK_REGION_BASE - 1;
    /** Held (exclusively, briefly) while a process creates, opens or deletes an async queue's buffer file. */
    public static final long ASYNC_BUFFER_FILE_LOCK = LOCK_REGION_BASE - 2;

    private TableStoreDescriptor() {
    }

    /** The length of a current (version 2) table store. */
    public static long fileSize(int slotCount) {
        return processRecordsOffset(slotCount) + (long) LockWordDescriptor.PROCESS_SLOTS * PROCESS_RECORD_SIZE;
    }

    /** The length of a version 1 table store, which has no process records. */
    public static long version1FileSize(int slotCount) {
        return processRecordsOffset(slotCount);
    }

    public static long processRecordsOffset(int slotCount) {
        return SLOTS_OFFSET + (long) slotCount * SLOT_SIZE;
    }

    public static long processRecordOffset(int slotCount, int processSlot) {
        return processRecordsOffset(slotCount) + (long) processSlot * PROCESS_RECORD_SIZE;
    }

    public static long slotOffset(int slot) {
        return SLOTS_OFFSET + (long) slot * SLOT_SIZE;
    }

    public static long slotLockRegion(int slot) {
        return LOCK_REGION_BASE + 1 + slot;
    }
}
