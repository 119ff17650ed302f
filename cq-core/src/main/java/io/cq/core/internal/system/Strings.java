package io.cq.core.internal.system;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

public final class Strings {
    private Strings() {
    }

    /** UTF-8 bytes of a string, cut at a character boundary to fit a capacity. */
    public static byte[] truncateUtf8(String value, int capacity) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= capacity) {
            return bytes;
        }
        int end = capacity;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return Arrays.copyOf(bytes, end);
    }
}
