package io.cq.core.internal.layout;

/**
 * The header of a cycle file (docs/file-format.md, "Cycle files"). Little-endian; the header is written whole when
 * the file is created, except the hints, which the write-lock holder updates after each publish.
 *
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+
 *   |             magic "cq.cycle"          |   0
 *   +-------------------+-------------------+
 *   |  formatVersion    |   headerLength    |   8
 *   +-------------------+-------------------+
 *   |                 cycle                 |  16
 *   +-------------------+-------------------+
 *   |  sequenceBits     |   indexCount      |  24
 *   +-------------------+-------------------+
 *   |  indexSpacing     |   (reserved)      |  32
 *   +-------------------+-------------------+
 *   |               blockSize               |  40
 *   +-------------------+-------------------+
 *   |          createdEpochMillis           |  48
 *   +-------------------+-------------------+
 *   |               dataStart               |  56
 *   +-------------------+-------------------+
 *   |    writePosition hint (release/acquire)|  64
 *   +-------------------+-------------------+
 *   |    sequence hint (release/acquire)    |  72
 *   +-------------------+-------------------+
 *   |        (reserved up to 120)           |  80  (codec fields in version 2 files: CodecDescriptor)
 *   +-------------------+-------------------+
 *   |   open record (plain, fenced)         | 120  where the last record was opened; 0 = not said
 *   +-------------------+-------------------+
 *   +-------------------+-------------------+
 *   |      page hint (release/acquire)      | 128  (a cache line of its own)
 *   +-------------------+-------------------+
 *   |        (reserved up to 256)           |
 *   +-------------------+-------------------+
 *   | primary index: indexCount x 8         | 256  (IndexDescriptor)
 *   +-------------------+-------------------+
 *   | (padding to a 64-byte line)           |
 *   +-------------------+-------------------+
 *   | records ...                           | dataStart  (ExcerptHeaderDescriptor)
 * </pre>
 *
 * Readers take indexCount, indexSpacing and blockSize from each file's header, never from their own settings.
 */
public final class CycleHeaderDescriptor {
    /** "cq.cycle" read as a little-endian long. */
    public static final long MAGIC = 0x656c6379632e7163L;
    public static final int FORMAT_VERSION = 1;
    public static final int HEADER_LENGTH = 256;

    public static final long MAGIC_OFFSET = 0;
    public static final long FORMAT_VERSION_OFFSET = 8;
    public static final long HEADER_LENGTH_OFFSET = 12;
    public static final long CYCLE_OFFSET = 16;
    public static final long SEQUENCE_BITS_OFFSET = 24;
    public static final long INDEX_COUNT_OFFSET = 28;
    public static final long INDEX_SPACING_OFFSET = 32;
    public static final long BLOCK_SIZE_OFFSET = 40;
    public static final long CREATED_MILLIS_OFFSET = 48;
    public static final long DATA_START_OFFSET = 56;
    public static final long WRITE_POSITION_OFFSET = 64;
    public static final long SEQUENCE_OFFSET = 72;
    /**
     * Where the write-lock holder last opened a record, stored before it writes any byte of it (docs/file-format.md,
     * "Appending", step 5): bytes after the free mark there are that record's, not damage. Never cleared: once the
     * record is published the end is elsewhere. On the hints' line, which only the writer stores to; 0 in files of
     * versions that marked open records {@code WORKING} instead.
     */
    public static final long OPEN_RECORD_OFFSET = 120;
    /**
     * Where the records reached when they last reached a new page: stored only then, so that readers polling the end
     * of the records can load it on every look without taking a cache line the writer stores to on every publish.
     */
    public static final long PAGE_HINT_OFFSET = 128;
    /** The granularity of the page hint: the unit in which an operating system loses a file's data. */
    public static final int PAGE_HINT_SHIFT = 12;

    /** Records start on a cache line of their own, after the primary index. */
    public static final int CACHE_LINE = 64;

    private CycleHeaderDescriptor() {
    }

    /** Where the records of a file with this index count start. */
    public static long dataStart(int indexCount) {
        long end = IndexDescriptor.PRIMARY_INDEX_OFFSET + (long) indexCount * Long.BYTES;
        return (end + CACHE_LINE - 1) & -CACHE_LINE;
    }
}
