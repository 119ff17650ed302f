package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.MessageHistory;
import io.cq.core.message.TextHeaders;

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
 *
 *   after the arguments, only if flags bit 1:
 *   +-------+-------------------------------------+------------------------------------------+
 *   | count | count x (name, value), each as text | section size (int, this field included)  |
 *   | (u8)  | (ExcerptBytes.writeUtf8)            | = the last 4 bytes of the excerpt        |
 *   +-------+-------------------------------------+------------------------------------------+
 * </pre>
 *
 * The headers section ({@link TextHeaders}) sits after the arguments so that readers that do not know it (version 1
 * readers from before it, which ignore flag bits they do not use and never read past the last argument) read the
 * message unchanged; its size at the very end lets a reader find it without decoding the arguments.
 *
 * Argument tags are the JVM's descriptor letters for primitives, stored raw, plus {@link #TEXT},
 * {@link #NULL}, {@link #DOCUMENT} (int length, CBOR; written before 0.1.0's compact documents, read forever),
 * {@link #COMPACT_DOCUMENT} (unsigned LEB128 length, CBOR), {@link #RECORD} (LEB128 length, type id, values) and
 * {@link #SELF_WRITTEN} (int length, the bytes of a
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
    static final int FLAG_HEADERS = 2;
    static final int FLAGS_OFFSET = MAGIC_SIZE;
    /** Count byte and size field of an empty headers section. */
    static final int MIN_HEADERS_SIZE = 1 + Integer.BYTES;
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
    /** A document with an int32 length: what writers wrote before {@link #COMPACT_DOCUMENT}; still read. */
    static final byte DOCUMENT = 'O';
    /** A document with its length as unsigned LEB128: one byte for documents under 128 bytes, where 'O' takes 4. */
    static final byte COMPACT_DOCUMENT = 'L';
    /**
     * A record without its names: LEB128 length, then the record type's id (int64, {@link MessageTypes}) and the
     * component values in order, each the CBOR item it is in the document.
     */
    static final byte RECORD = 'R';
    /** Longest LEB128 encoding of a non-negative int. */
    static final int MAX_LENGTH_BYTES = 5;
    static final byte SELF_WRITTEN = 'M';

    private static final int SOURCE_BYTES = 4 + 8;
    private static final int TIMING_BYTES = 8;

    private MessageLayout() {
    }

    /** Writes a document's length as unsigned LEB128: seven bits a byte, low bits first, high bit on all but last. */
    static void writeLength(ExcerptBytes bytes, int length) {
        int value = length;
        while ((value & ~0x7F) != 0) {
            bytes.writeByte((byte) (value & 0x7F | 0x80));
            value >>>= 7;
        }
        bytes.writeByte((byte) value);
    }

    /**
     * Reads a length written by {@link #writeLength}.
     *
     * @throws IllegalStateException when it takes more than {@link #MAX_LENGTH_BYTES} or exceeds an int
     */
    static int readLength(ExcerptBytes bytes) {
        long value = 0;
        for (int i = 0; i < MAX_LENGTH_BYTES; i++) {
            byte b = bytes.readByte();
            value |= (long) (b & 0x7F) << (7 * i);
            if (b >= 0) {
                if (value > Integer.MAX_VALUE) {
                    break;
                }
                return (int) value;
            }
        }
        throw new IllegalStateException("a document length that is no non-negative int in LEB128");
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

    /** Writes the headers section at the cursor, which must be after the last argument. */
    static void writeHeaders(ExcerptBytes bytes, TextHeaders headers) {
        long start = bytes.position();
        int count = headers.size();
        bytes.writeByte((byte) count);
        for (int i = 0; i < count; i++) {
            bytes.writeUtf8(headers.name(i)).writeUtf8(headers.value(i));
        }
        bytes.writeInt((int) (bytes.position() - start) + Integer.BYTES);
    }

    /**
     * Replaces {@code into} with the headers section of the message excerpt, leaving the cursor where it was.
     *
     * @return false, with {@code into} empty, when the excerpt is not a message or has no headers section
     * @throws MessageDecodingException when the section is malformed
     */
    static boolean readHeaders(ExcerptBytes bytes, long index, TextHeaders into) {
        into.clear();
        if (!isMessage(bytes) || (bytes.readIntAt(0) >>> 24) != VERSION) {
            return false;
        }
        long position = bytes.position();
        try {
            bytes.position(FLAGS_OFFSET);
            if ((bytes.readByte() & FLAG_HEADERS) == 0) {
                return false;
            }
            long length = bytes.length();
            int size = bytes.readIntAt(length - Integer.BYTES);
            if (size < MIN_HEADERS_SIZE || size > length - MIN_SIZE) {
                throw new MessageDecodingException(index, null, "its headers section claims " + size
                        + " bytes in a message of " + length, null);
            }
            long end = length - Integer.BYTES;
            bytes.position(length - size);
            int count = bytes.readByte() & 0xFF;
            for (int i = 0; i < count; i++) {
                into.put(bytes.readUtf8(), bytes.readUtf8());
            }
            if (bytes.position() != end) {
                throw new MessageDecodingException(index, null, "its headers section of " + size + " bytes holds "
                        + (bytes.position() - (length - size)) + " bytes of " + count + " headers", null);
            }
            return true;
        } catch (MessageDecodingException e) {
            into.clear();
            throw e;
        } catch (RuntimeException e) {
            into.clear();
            throw new MessageDecodingException(index, null, "its headers section is malformed: " + e.getMessage(), e);
        } finally {
            bytes.position(position);
        }
    }
}
