package io.cq.core.internal.layout;

/**
 * Layout of an async queue's buffer file (docs/file-format.md, "Async buffer"): a header, then a ring of records
 * that writers add under the buffer's lock word and one drainer copies into the queue. Positions
 * are absolute byte counts since the buffer was made (a record at position {@code p} lies at
 * {@code RECORDS + p % capacity}), so they only grow and no two laps share one. Little-endian.
 *
 * <pre>
 *    0 | magic "cq.async"             | 8
 *    8 | formatVersion | 0            | 4 + 4
 *   16 | capacity                     | 8   bytes of records, a multiple of 4096
 *   24 | queueId                      | 8   the table store's, so a buffer is never used for another queue
 *   64 | tail                         | 8   position after the last record added (release by the lock holder)
 *   72 | lastIndex                    | 8   index of the last record added (-1: none yet)
 *   80 | reuseLimit                   | 8   writers may have overwritten the previous lap's bytes below
 *      |                              |     reuseLimit - capacity (set before they write, for readers to check)
 *  128 | head                         | 8   position up to which records are drained: space below is free
 *  192 | drainVersion                 | 8   odd while the drainer changes the three words below (a seqlock)
 *  200 | drainedIndex                 | 8   the queue index the last drained record got (-1: none)
 *  208 | drainedPosition              | 8   that record's position
 *  216 | nextPosition                 | 8   the next record to drain
 *  256 | lock word                    | 8   held by the writer adding a record: a write-lock word, with tokens of
 *      |                              |     the table store (LockWordDescriptor); here, not in the table store,
 *      |                              |     so that taking it never writes to a page of a file on disk
 *  320 | records, capacity bytes
 * </pre>
 *
 * Record, 8-byte aligned; a record never wraps: one that does not fit before the end of the lap is preceded by a
 * padding header that sends readers to the next lap:
 * <pre>
 *   +0  length of the excerpt, or {@link #PADDING}     4
 *   +4  0                                              4
 *   +8  index the excerpt gets in the queue            8
 *   +16 time it was added (epoch ms): its cycle        8
 *   +24 the excerpt's bytes, then zeros to 8 bytes
 * </pre>
 */
public final class AsyncRingDescriptor {
    public static final long MAGIC = 0x636e7973612e7163L; // "cq.async" read little-endian
    public static final int FORMAT_VERSION = 1;
    public static final String FILE_PREFIX = "cq-async-";
    public static final String FILE_SUFFIX = ".cq4a";

    public static final long MAGIC_OFFSET = 0;
    public static final long FORMAT_VERSION_OFFSET = 8;
    public static final long CAPACITY_OFFSET = 16;
    public static final long QUEUE_ID_OFFSET = 24;
    public static final long TAIL_OFFSET = 64;
    public static final long LAST_INDEX_OFFSET = 72;
    public static final long REUSE_LIMIT_OFFSET = 80;
    public static final long HEAD_OFFSET = 128;
    public static final long DRAIN_VERSION_OFFSET = 192;
    public static final long DRAINED_INDEX_OFFSET = 200;
    public static final long DRAINED_POSITION_OFFSET = 208;
    public static final long NEXT_POSITION_OFFSET = 216;
    public static final long LOCK_OFFSET = 256;
    public static final long RECORDS = 320;

    public static final int RECORD_LENGTH = 0;
    public static final int RECORD_INDEX = 8;
    public static final int RECORD_MILLIS = 16;
    public static final int RECORD_HEADER = 24;
    public static final int PADDING = -1;

    /** 16 MiB of records: at 40-byte excerpts, about 250,000 of them ahead of a stalled drainer. */
    public static final long DEFAULT_CAPACITY = io.cq.core.MappedQueueBuilder.DEFAULT_ASYNC_BUFFER_SIZE;
    public static final long MIN_CAPACITY = 64L << 10;
    public static final long MAX_CAPACITY = 1L << 30;

    private AsyncRingDescriptor() {
    }

    /** Bytes a record of an excerpt of {@code length} bytes takes, header and alignment included. */
    public static long recordSize(long length) {
        return (RECORD_HEADER + length + 7) & ~7L;
    }

    /** The largest excerpt a buffer of {@code capacity} takes: a quarter of it, so a full lap holds several. */
    public static long maxExcerpt(long capacity) {
        return capacity / 4 - RECORD_HEADER;
    }

    public static long fileSize(long capacity) {
        return RECORDS + capacity;
    }

    public static String fileName(long queueId) {
        return FILE_PREFIX + String.format("%016x", queueId) + FILE_SUFFIX;
    }
}
