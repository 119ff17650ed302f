package io.cq.core.internal.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** UTF-8 to and from mapped memory without intermediate arrays; malformed input decodes to U+FFFD. */
public final class Utf8 {
    private static final char REPLACEMENT = '\uFFFD';

    private Utf8() {
    }

    public static long encodedLength(CharSequence text) {
        long length = 0;
        int size = text.length();
        for (int i = 0; i < size; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < size && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    /**
     * Writes the text's UTF-8 bytes from {@code offset}, never at or past {@code limit}: a text that grew after its
     * length was measured (a builder changed by another thread) fails with an {@link IllegalStateException}
     * instead of writing past the space measured, and reserved, for it.
     */
    public static void encode(CharSequence text, MemorySegment segment, long offset, long limit) {
        int size = text.length();
        long p = offset;
        for (int i = 0; i < size; i++) {
            if (p > limit - 4 && p + bytesOf(text, i) > limit) {
                throw new IllegalStateException("the text changed while it was being written: it no longer fits the "
                        + (limit - offset) + " bytes measured for it");
            }
            char c = text.charAt(i);
            if (c < 0x80) {
                put(segment, p++, c);
            } else if (c < 0x800) {
                put(segment, p++, 0xC0 | c >> 6);
                put(segment, p++, 0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < size && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                put(segment, p++, 0xF0 | cp >> 18);
                put(segment, p++, 0x80 | cp >> 12 & 0x3F);
                put(segment, p++, 0x80 | cp >> 6 & 0x3F);
                put(segment, p++, 0x80 | cp & 0x3F);
            } else {
                // A lone surrogate has no UTF-8 form: it is written as U+FFFD, as String.getBytes does.
                char d = Character.isSurrogate(c) ? REPLACEMENT : c;
                put(segment, p++, 0xE0 | d >> 12);
                put(segment, p++, 0x80 | d >> 6 & 0x3F);
                put(segment, p++, 0x80 | d & 0x3F);
            }
        }
    }

    private static int bytesOf(CharSequence text, int i) {
        char c = text.charAt(i);
        if (c < 0x80) {
            return 1;
        }
        if (c < 0x800) {
            return 2;
        }
        return Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                ? 4 : 3;
    }

    private static void put(MemorySegment segment, long offset, int value) {
        segment.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
    }

    public static void decode(MemorySegment segment, long offset, long length, StringBuilder into) {
        long end = offset + length;
        long p = offset;
        while (p < end) {
            int b = segment.get(ValueLayout.JAVA_BYTE, p) & 0xFF;
            if (b < 0x80) {
                into.append((char) b);
                p++;
                continue;
            }
            int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : -1;
            if (extra < 0 || b >= 0xF8 || p + extra >= end) {
                into.append(REPLACEMENT);
                p++;
                continue;
            }
            int cp = b & (0x3F >> extra);
            boolean valid = true;
            for (int i = 1; i <= extra; i++) {
                int next = segment.get(ValueLayout.JAVA_BYTE, p + i) & 0xFF;
                if ((next & 0xC0) != 0x80) {
                    valid = false;
                    break;
                }
                cp = cp << 6 | next & 0x3F;
            }
            if (!valid) {
                into.append(REPLACEMENT);
                p++;
                continue;
            }
            into.appendCodePoint(Character.isValidCodePoint(cp) ? cp : REPLACEMENT);
            p += extra + 1;
        }
    }

    /**
     * Writes the text's UTF-8 bytes at the cursor's position, with no length before them (an appender's
     * {@code writeText} makes an excerpt of them), and moves the cursor past them. Refused past the excerpt's limit
     * as any write is, naming the limit; the excerpt is then failed.
     */
    public static void writeText(SegmentCursor cursor, CharSequence text) {
        long length = encodedLength(text);
        long offset = cursor.claim(length);
        encode(text, cursor.backing(), offset, offset + length);
    }
}
