package io.cq.core.internal.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writes the LZ4 block format (lz4.org, "LZ4 Block Format Description") as LZ4's fast mode does, but trying the
 * last two positions of each hash, one step of lazy matching, and remembering every position a match covers (a few
 * percent smaller output for JSON-like excerpts, near LZ4's high-compression mode), with hash tables of its own kept
 * from excerpt to excerpt: lz4-java's pure-Java compressor allocates a 16 KiB table for
 * every call, which at a million excerpts a second is 16 GB/s of garbage. Entries of earlier calls are told apart by
 * an offset that grows with every call, so the table is cleared only when that offset would overflow. Its output is
 * read by lz4-java's decompressor (and any other LZ4 implementation). Not thread-safe.
 */
final class Lz4BlockCompressor {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int MIN_MATCH = 4;
    /** The last five bytes of a block are literals, and the last match starts at least twelve bytes before its end. */
    private static final int LAST_LITERALS = 5;
    private static final int MATCH_FIND_LIMIT = 12;
    private static final int MAX_DISTANCE = 65_535;
    private static final int HASH_LOG = 12;
    private static final int RUN_MASK = 15;
    /** Misses before the search steps over more than one byte at a time (LZ4's acceleration). */
    private static final int SKIP_TRIGGER = 6;

    private final int[] table = new int[1 << HASH_LOG];
    /** What {@link #table} held before, per hash: a second candidate for each match. */
    private final int[] previous = new int[1 << HASH_LOG];
    /** Added to positions stored in the table: entries below it belong to earlier calls. */
    private int generation = 1;

    /** LZ4's bound: incompressible input grows by at most this much. */
    static int maxCompressedLength(int length) {
        return length + length / 255 + 16;
    }

    /** @return the compressed length, written from {@code dst[dstOffset]}, which must have the bound's room */
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        if (generation > Integer.MAX_VALUE - length - 1) {
            Arrays.fill(table, 0);
            Arrays.fill(previous, 0);
            generation = 1;
        }
        int base = generation - srcOffset;
        int end = srcOffset + length;
        int anchor = srcOffset;
        int op = dstOffset;
        if (length > MATCH_FIND_LIMIT) {
            int matchLimit = end - LAST_LITERALS;
            int findLimit = end - MATCH_FIND_LIMIT;
            insert(src, srcOffset, base);
            int ip = srcOffset + 1;
            int misses = 1 << SKIP_TRIGGER;
            while (ip <= findLimit) {
                int h = hash(src, ip);
                int newer = table[h];
                int older = previous[h];
                previous[h] = newer;
                table[h] = ip + base;
                // Two candidates, the last two positions with this hash: the longer match wins.
                int ref = -1;
                int matchLength = 0;
                for (int stored = newer, round = 0; round < 2; stored = older, round++) {
                    int found = matchAt(src, ip, stored - base, stored, matchLimit);
                    if (found > matchLength) {
                        matchLength = found;
                        ref = stored - base;
                    }
                }
                if (ref >= 0 && ip + 1 <= findLimit) {
                    // One step of lazy matching: a longer match one byte on is worth a literal more.
                    int h1 = hash(src, ip + 1);
                    int stored1 = table[h1];
                    int found = matchAt(src, ip + 1, stored1 - base, stored1, matchLimit);
                    if (found > matchLength + 1) {
                        previous[h1] = stored1;
                        table[h1] = ip + 1 + base;
                        ip++;
                        matchLength = found;
                        ref = stored1 - base;
                    }
                }
                if (ref < 0) {
                    ip += misses++ >>> SKIP_TRIGGER;
                    continue;
                }
                misses = 1 << SKIP_TRIGGER;
                while (ip > anchor && ref > srcOffset && src[ip - 1] == src[ref - 1]) {
                    ip--;
                    ref--;
                    matchLength++;
                }
                op = sequence(src, anchor, ip - anchor, dst, op, ip - ref, matchLength);
                // Every position the match covers goes into the table, so later matches can start there.
                int matchEnd = ip + matchLength;
                for (int p = ip + 1; p < matchEnd && p <= findLimit; p++) {
                    insert(src, p, base);
                }
                ip = matchEnd;
                anchor = ip;
            }
        }
        op = lastLiterals(src, anchor, end - anchor, dst, op);
        generation += length + 1;
        return op - dstOffset;
    }

    /** The length of the match at {@code ip} with an earlier position (stored as {@code stored}), or 0. */
    private int matchAt(byte[] src, int ip, int candidate, int stored, int matchLimit) {
        if (stored < generation || candidate >= ip || ip - candidate > MAX_DISTANCE
                || (int) INT.get(src, candidate) != (int) INT.get(src, ip)) {
            return 0;
        }
        int length = MIN_MATCH;
        while (ip + length < matchLimit && src[ip + length] == src[candidate + length]) {
            length++;
        }
        return length;
    }

    private void insert(byte[] src, int at, int base) {
        int h = hash(src, at);
        previous[h] = table[h];
        table[h] = at + base;
    }

    private static int hash(byte[] src, int at) {
        return ((int) INT.get(src, at) * -1640531535) >>> (32 - HASH_LOG);
    }

    private static int sequence(byte[] src, int literalsAt, int literals, byte[] dst, int op, int distance,
                                int matchLength) {
        int tokenAt = op++;
        int extraMatch = matchLength - MIN_MATCH;
        int token = (Math.min(literals, RUN_MASK) << 4) | Math.min(extraMatch, RUN_MASK);
        op = length(literals, dst, op);
        System.arraycopy(src, literalsAt, dst, op, literals);
        op += literals;
        dst[op++] = (byte) distance;
        dst[op++] = (byte) (distance >>> 8);
        op = length(extraMatch, dst, op);
        dst[tokenAt] = (byte) token;
        return op;
    }

    private static int lastLiterals(byte[] src, int literalsAt, int literals, byte[] dst, int op) {
        dst[op++] = (byte) (Math.min(literals, RUN_MASK) << 4);
        op = length(literals, dst, op);
        System.arraycopy(src, literalsAt, dst, op, literals);
        return op + literals;
    }

    /** The bytes after a token that carry a length of 15 or more: 255 for each full 255, then the rest. */
    private static int length(int value, byte[] dst, int op) {
        if (value >= RUN_MASK) {
            int left = value - RUN_MASK;
            while (left >= 255) {
                dst[op++] = (byte) 255;
                left -= 255;
            }
            dst[op++] = (byte) left;
        }
        return op;
    }
}
