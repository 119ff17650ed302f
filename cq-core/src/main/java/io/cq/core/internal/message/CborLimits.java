package io.cq.core.internal.message;

/**
 * A linear check of a CBOR document's structure before Jackson decodes it (docs/messages.md, "Security"): Jackson
 * takes time quadratic in a chain of tags (400,000 tags: seconds), and trusts declared lengths and counts. Here
 * every declared length and count must fit in the bytes that are left, chains of tags and nesting are bounded, and
 * the whole document is walked once, without recursion. Limits are set with system properties
 * ({@code cq.messages.maxTagChain}, {@code cq.messages.maxNestingDepth}); the defaults are far above what any
 * message written by cq needs (it writes at most one tag per value, for big numbers).
 */
final class CborLimits {
    static final int MAX_TAG_CHAIN = Integer.getInteger("cq.messages.maxTagChain", 8);
    static final int MAX_NESTING_DEPTH = Integer.getInteger("cq.messages.maxNestingDepth", 500);

    private static final int MAJOR_ARRAY = 4;
    private static final int MAJOR_MAP = 5;
    private static final int MAJOR_TAG = 6;
    private static final int MAJOR_SIMPLE = 7;
    private static final int INDEFINITE = 31;
    private static final long OPEN_ENDED = -1;

    private CborLimits() {
    }

    /**
     * Checks the one CBOR data item at {@code data[offset, offset + length)}.
     *
     * @throws IllegalArgumentException saying what is wrong and at which byte
     */
    static void check(byte[] data, int offset, int length) {
        check(data, offset, length, workspace());
    }

    /** What {@link #check(byte[], int, int, long[])} works in: one per caller that checks many documents. */
    static long[] workspace() {
        return new long[MAX_NESTING_DEPTH + 2];
    }

    /**
     * {@link #check(byte[], int, int)} in the caller's {@link #workspace()}, which it overwrites: a new one would be
     * 4 KB per document.
     *
     * @return where the item ends: the offset of the byte after it, which the bytes after it do not move
     */
    static int check(byte[] data, int offset, int length, long[] workspace) {
        int end = offset + length;
        int position = offset;
        // Items still expected in each open container (OPEN_ENDED for indefinite-length ones); [0] is the document.
        long[] expected = workspace;
        int depth = 0;
        expected[0] = 1;
        int tags = 0;
        while (depth > 0 || expected[0] > 0) {
            if (position >= end) {
                throw new IllegalArgumentException("the CBOR document ends at byte " + (position - offset)
                        + " inside an item");
            }
            int initial = data[position++] & 0xFF;
            int major = initial >>> 5;
            int info = initial & 31;
            if (major == MAJOR_SIMPLE && info == INDEFINITE) {
                if (expected[depth] != OPEN_ENDED || tags > 0) {
                    throw new IllegalArgumentException("unexpected CBOR break at byte " + (position - 1 - offset));
                }
                depth--;
                depth = closeFinished(expected, depth);
                continue;
            }
            long argument;
            if (info < 24) {
                argument = info;
            } else if (info <= 27) {
                int size = 1 << (info - 24);
                if (end - position < size) {
                    throw new IllegalArgumentException("the CBOR document ends inside an argument at byte "
                            + (position - offset));
                }
                argument = 0;
                for (int i = 0; i < size; i++) {
                    argument = argument << 8 | (data[position++] & 0xFF);
                }
            } else if (info == INDEFINITE && major >= 2 && major <= MAJOR_MAP) {
                argument = OPEN_ENDED;
            } else {
                throw new IllegalArgumentException("reserved CBOR additional information " + info + " at byte "
                        + (position - 1 - offset));
            }
            if (major == MAJOR_TAG) {
                if (++tags > MAX_TAG_CHAIN) {
                    throw new IllegalArgumentException("more than " + MAX_TAG_CHAIN + " CBOR tags in a row at byte "
                            + (position - offset) + " (cq.messages.maxTagChain)");
                }
                continue;
            }
            tags = 0;
            if (expected[depth] != OPEN_ENDED) {
                expected[depth]--;
            }
            long left = end - position;
            if (major == 2 || major == 3) {
                if (argument == OPEN_ENDED) {
                    depth = open(expected, depth, OPEN_ENDED, position - offset);
                    continue;
                }
                if (argument < 0 || argument > left) {
                    throw new IllegalArgumentException("a CBOR string of " + Long.toUnsignedString(argument)
                            + " bytes at byte " + (position - offset) + " with " + left + " left");
                }
                position += (int) argument;
            } else if (major == MAJOR_ARRAY || major == MAJOR_MAP) {
                long items = argument == OPEN_ENDED ? OPEN_ENDED : major == MAJOR_MAP ? argument * 2 : argument;
                if (argument != OPEN_ENDED && (argument < 0 || items < 0 || items > left)) {
                    throw new IllegalArgumentException("a CBOR " + (major == MAJOR_MAP ? "map" : "array") + " of "
                            + Long.toUnsignedString(argument) + " entries at byte " + (position - offset) + " with "
                            + left + " bytes left");
                }
                if (items != 0) {
                    depth = open(expected, depth, items, position - offset);
                    continue;
                }
            }
            // integers, simple values and floats: their bytes were the argument
            depth = closeFinished(expected, depth);
        }
        return position;
    }

    private static int open(long[] expected, int depth, long items, int at) {
        if (depth + 1 > MAX_NESTING_DEPTH) {
            throw new IllegalArgumentException("CBOR nesting deeper than " + MAX_NESTING_DEPTH + " at byte " + at
                    + " (cq.messages.maxNestingDepth)");
        }
        expected[depth + 1] = items;
        return depth + 1;
    }

    /** Leaves every container whose last item has been read. */
    private static int closeFinished(long[] expected, int depth) {
        int level = depth;
        while (level > 0 && expected[level] == 0) {
            level--;
        }
        return level;
    }
}
