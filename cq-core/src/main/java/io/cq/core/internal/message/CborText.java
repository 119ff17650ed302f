package io.cq.core.internal.message;

import java.util.Arrays;

/** Checks on CBOR text shared by {@link RecordDecoder} and {@link EnumNames}. */
final class CborText {
    private CborText() {
    }

    /**
     * Whether {@code text[0, length)} is well-formed UTF-8 (no overlong forms, no surrogates, nothing above
     * U+10FFFF), so that the JDK's decoding and Jackson's agree on it; Jackson handles anything else its own way.
     */
    static boolean isValidUtf8(byte[] text, int length) {
        int i = 0;
        while (i < length) {
            int b = text[i] & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int more;
            int low = 0x80;
            int high = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                more = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                more = 2;
                if (b == 0xE0) {
                    low = 0xA0;
                } else if (b == 0xED) {
                    high = 0x9F;
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                more = 3;
                if (b == 0xF0) {
                    low = 0x90;
                } else if (b == 0xF4) {
                    high = 0x8F;
                }
            } else {
                return false;
            }
            if (i + more >= length) {
                return false; // cut short
            }
            int second = text[i + 1] & 0xFF;
            if (second < low || second > high) {
                return false;
            }
            for (int k = 2; k <= more; k++) {
                int next = text[i + k] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return false;
                }
            }
            i += more + 1;
        }
        return true;
    }

    /** The bytes of a CBOR item that is definite-length text and nothing else, or null. */
    static byte[] definiteText(byte[] item) {
        if (item.length == 0 || (item[0] & 0xFF) >>> 5 != Cbor.MAJOR_TEXT) {
            return null;
        }
        int info = item[0] & 31;
        int header = info < 24 ? 1 : info == 24 ? 2 : info == 25 ? 3 : info == 26 ? 5 : -1;
        if (header < 0) {
            return null;
        }
        long length = 0;
        for (int i = 1; i < header; i++) {
            length = length << 8 | (item[i] & 0xFF);
        }
        if (info < 24) {
            length = info;
        }
        return header + length == item.length ? Arrays.copyOfRange(item, header, item.length) : null;
    }
}
