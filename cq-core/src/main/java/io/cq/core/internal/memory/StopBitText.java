package io.cq.core.internal.memory;

/**
 * Text in an excerpt as {@link io.cq.core.ExcerptBytes#writeUtf8} writes it (docs/file-format.md, "T"): a stop-bit
 * length, then that many bytes of UTF-8. The length is the byte count plus one, so that 0 stands for null; stop-bit
 * is unsigned LEB128, seven bits a byte, low bits first, the high bit set on all but the last byte.
 */
final class StopBitText {
    private StopBitText() {
    }

    static void write(SegmentCursor cursor, CharSequence text) {
        if (text == null) {
            writeLength(cursor, 0);
            return;
        }
        long encoded = Utf8.encodedLength(text);
        writeLength(cursor, encoded + 1);
        long offset = cursor.claim(encoded);
        Utf8.encode(text, cursor.backing(), offset, offset + encoded);
    }

    /** @return the text, or null where null was written */
    static String read(SegmentCursor cursor) {
        long encoded = readLength(cursor);
        if (encoded == 0) {
            return null;
        }
        long length = encoded - 1;
        if (length < 0 || length > Integer.MAX_VALUE - 16) {
            throw CursorErrors.textTooLong(length);
        }
        long offset = cursor.take(length);
        StringBuilder text = new StringBuilder((int) length);
        Utf8.decode(cursor.backing(), offset, length, text);
        return text.toString();
    }

    /** @return false, appending nothing, where null was written */
    static boolean read(SegmentCursor cursor, StringBuilder into) {
        long encoded = readLength(cursor);
        if (encoded == 0) {
            return false;
        }
        long length = encoded - 1;
        long offset = cursor.take(length);
        Utf8.decode(cursor.backing(), offset, length, into);
        return true;
    }

    private static void writeLength(SegmentCursor cursor, long value) {
        while ((value & ~0x7FL) != 0) {
            cursor.writeByte((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        cursor.writeByte((byte) value);
    }

    private static long readLength(SegmentCursor cursor) {
        long start = cursor.position();
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = cursor.readByte();
            if (shift == 63 && (b & 0x7E) != 0) {
                break;
            }
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                if (value < 0) {
                    break;
                }
                return value;
            }
        }
        throw CursorErrors.malformedLength(start);
    }
}
