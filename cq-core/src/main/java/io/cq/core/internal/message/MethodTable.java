package io.cq.core.internal.message;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Finds the dispatches for a method name given as UTF-8 bytes, without allocating: open addressing over a
 * power-of-two table, keyed by a hash of the bytes, confirmed by comparing them.
 */
final class MethodTable {
    private final byte[][] names;
    private final Dispatch[][] dispatches;
    private final int mask;

    MethodTable(Map<String, List<Dispatch>> byName) {
        int size = Integer.highestOneBit(Math.max(4, byName.size() * 4) - 1) << 1;
        names = new byte[size][];
        dispatches = new Dispatch[size][];
        mask = size - 1;
        byName.forEach((name, list) -> {
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            int slot = hash(bytes, bytes.length) & mask;
            while (names[slot] != null) {
                slot = (slot + 1) & mask;
            }
            names[slot] = bytes;
            dispatches[slot] = list.toArray(Dispatch[]::new);
        });
    }

    /** The dispatches for the name in {@code name[0, length)}, or null when no handler has that method. */
    Dispatch[] find(byte[] name, int length) {
        int slot = hash(name, length) & mask;
        byte[] candidate;
        while ((candidate = names[slot]) != null) {
            if (Arrays.equals(candidate, 0, candidate.length, name, 0, length)) {
                return dispatches[slot];
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    private static int hash(byte[] bytes, int length) {
        int h = 0x811C9DC5;
        for (int i = 0; i < length; i++) {
            h = (h ^ bytes[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }
}
