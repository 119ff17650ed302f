package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.MessageHistory;

/**
 * Layout of a message excerpt (docs/file-format.md, "Message excerpts"). All values little-endian.
 *
 * <pre>
 *   0          3         4        5
 *   +----------+---------+--------+--------------------+----------+----------+------+---------------------+
 *   | 'c' 'q'  | version | flags  | history            | name len | name     | argc | argc x (tag, value) |
 *   | 'm'      | (1)     | (u8)   | (if flags bit 0)   | (u8)     | (UTF-8)  | (u8) |                     |
 *   +----------+---------+--------+--------------------+----------+----------+------+---------------------+
 *   history: source count (u8), count x (int sourceId, long index), timing count (u8), count x long nanoTime
 * </pre>
 *
 * Argument tags are the JVM's descriptor letters for primitives, stored raw, plus {@link #TEXT},
 * {@link #NULL}, {@link #DOCUMENT} (int length, CBOR) and {@link #SELF_WRITTEN} (int length, the bytes of a
 * {@link io.cq.core.message.BytesMessage}). An excerpt written by {@code writeObject} is a message with an
 * empty name and one argument.
 */
public final class MessageLayout {
    /** "cqm" and the version byte, read as one little-endian int. */
    static final int SIGNATURE = 'c' | 'q' << 8 | 'm' << 16;
    static final int SIGNATURE_MASK = 0x00FF_FFFF;
    static final int VERSION = 1;
    static final int MAGIC = SIGNATURE | VERSION << 24;
    static final int MAGIC_SIZE = 4;
    /** Magic, flags, name length and argument count: the smallest message. */
    static final int MIN_SIZE = MAGIC_SIZE + 3;

    static final int FLAG_HISTORY = 1;
    static final int MAX_NAME_BYTES = 255;
    static final int MAX_ARGUMENTS = 255;

    static final byte BOOLEAN = 'Z';
    static final byte BYTE = 'B';
    static final byte SHORT = 'S';
    static final byte CHAR = 'C';
    static final byte INT = 'I';
    static final byte LONG = 'J';
    static final byte FLOAT = 'F';
    static final byte DOUBLE = 'D';
    static final byte TEXT = 'T';
    static final byte NULL = 'N';
    static final byte DOCUMENT = 'O';
    static final byte SELF_WRITTEN = 'M';

    private static final int SOURCE_BYTES = 4 + 8;
    private static final int TIMING_BYTES = 8;

    private MessageLayout() {
    }

    /** Whether the excerpt starts with the message signature (any version); does not move the cursor. */
    public static boolean isMessage(ExcerptBytes bytes) {
        return bytes.length() >= MIN_SIZE && (bytes.readIntAt(0) & SIGNATURE_MASK) == SIGNATURE;
    }

    static int version(ExcerptBytes bytes) {
        return bytes.readIntAt(0) >>> 24;
    }

    /**
     * Writes the history section: the thread's history as read by a method reader, then this writer's own
     * source (when {@code sourceId != 0}) and the time of this write.
     */
    static void writeHistory(ExcerptBytes bytes, MessageHistory history, int sourceId, long index) {
        int sources = history.sourceCount();
        int timings = history.timingCount();
        // A timing slot stays free for the reader of this message, which adds the time it read it.
        if (sources + 1 > MessageHistory.MAX_ENTRIES || timings + 2 > MessageHistory.MAX_ENTRIES) {
            throw new IllegalStateException("message history is full (" + sources + " sources, " + timings
                    + " timings); a message that loops between queues must not keep history on every hop");
        }
        boolean ownSource = sourceId != 0;
        bytes.writeByte((byte) (sources + (ownSource ? 1 : 0)));
        for (int i = 0; i < sources; i++) {
            bytes.writeInt(history.sourceId(i)).writeLong(history.sourceIndex(i));
        }
        if (ownSource) {
            bytes.writeInt(sourceId).writeLong(index);
        }
        bytes.writeByte((byte) (timings + 1));
        for (int i = 0; i < timings; i++) {
            bytes.writeLong(history.timing(i));
        }
        bytes.writeLong(System.nanoTime());
    }

    /** Replaces {@code into} with the history section at the cursor. */
    static void readHistory(ExcerptBytes bytes, MessageHistory into) {
        into.reset();
        int sources = bytes.readByte() & 0xFF;
        for (int i = 0; i < sources; i++) {
            into.addSource(bytes.readInt(), bytes.readLong());
        }
        int timings = bytes.readByte() & 0xFF;
        for (int i = 0; i < timings; i++) {
            into.addTiming(bytes.readLong());
        }
    }

    static void skipHistory(ExcerptBytes bytes) {
        int sources = bytes.readByte() & 0xFF;
        bytes.position(bytes.position() + (long) sources * SOURCE_BYTES);
        int timings = bytes.readByte() & 0xFF;
        bytes.position(bytes.position() + (long) timings * TIMING_BYTES);
    }
}
