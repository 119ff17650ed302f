package io.cq.core.internal.layout;

/**
 * The 32-bit word in front of every record of a cycle file (docs/file-format.md, "Records").
 *
 * <pre>
 *   31        30       29       28 ............................ 0
 * +---------+--------+--------+----------------------------------+
 * | WORKING |  META  | READY  |             LENGTH               |
 * +---------+--------+--------+----------------------------------+
 * </pre>
 *
 * Records start on a 4-byte boundary; the payload follows the header word, and the next record starts at
 * {@link #next(long, int)}. The header is written last, with a release store ({@code READY | length}), and read
 * with an acquire load: everything written before it is visible to a reader that sees it.
 *
 * <p>A word of 0 means nothing has been written there yet. {@code READY} is set on every published record, so
 * that a published excerpt of length 0 is not mistaken for free space. {@link #END_OF_CYCLE} is a metadata
 * record with an impossible length: the last record a cycle file will ever get.
 */
public final class ExcerptHeaderDescriptor {
    public static final int SIZE = 4;
    public static final int ALIGNMENT = 4;

    public static final int EMPTY = 0;
    public static final int WORKING = 0x8000_0000;
    public static final int META = 0x4000_0000;
    public static final int READY = 0x2000_0000;
    public static final int LENGTH_MASK = 0x1FFF_FFFF;
    public static final int END_OF_CYCLE = READY | META | LENGTH_MASK;
    /** The largest payload a header can describe. */
    public static final int MAX_LENGTH = LENGTH_MASK - 1;

    private ExcerptHeaderDescriptor() {
    }

    public static int data(int length) {
        return READY | length;
    }

    public static int meta(int length) {
        return READY | META | length;
    }

    public static boolean isEmpty(int header) {
        return header == EMPTY;
    }

    public static boolean isWorking(int header) {
        return (header & WORKING) != 0;
    }

    /**
     * The free mark a writer leaves in the word after the last record it publishes, before publishing that record:
     * {@code WORKING | META} and the low 29 bits of the number of excerpts before it in the cycle. Unlike 0, a lost
     * page cannot fake it, so a reader that finds it knows it stands where the writer has reached, without reading
     * the writer's hints (docs/file-format.md, "Records"). Readers that know nothing of it take it for a record
     * being written, which is also free space to them.
     */
    public static int free(long excerptsBefore) {
        return WORKING | META | (int) (excerptsBefore & LENGTH_MASK);
    }

    /** True for a free mark, whatever count it carries. */
    public static boolean isFree(int header) {
        return (header & (WORKING | META)) == (WORKING | META);
    }

    /** True for a published record, data or metadata (including the end-of-cycle mark). */
    public static boolean isReady(int header) {
        return (header & (WORKING | READY)) == READY;
    }

    public static boolean isData(int header) {
        return (header & (WORKING | META | READY)) == READY;
    }

    public static boolean isMeta(int header) {
        return (header & (WORKING | META | READY)) == (META | READY);
    }

    public static boolean isEndOfCycle(int header) {
        return header == END_OF_CYCLE;
    }

    public static int length(int header) {
        return header & LENGTH_MASK;
    }

    /** Position of the record that follows one with this payload length. */
    public static long next(long position, int length) {
        return align(position + SIZE + length);
    }

    public static long align(long position) {
        return (position + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** A readable description of a header word, for dumps and error messages. */
    public static String describe(int header) {
        if (header == EMPTY) {
            return "empty";
        }
        if (header == END_OF_CYCLE) {
            return "end-of-cycle";
        }
        if (isFree(header)) {
            return "free (after " + length(header) + " excerpts, modulo 2^29)";
        }
        if (isWorking(header)) {
            return "being written";
        }
        if (!isReady(header)) {
            return String.format("invalid header 0x%08x", header);
        }
        return (isMeta(header) ? "metadata" : "data") + " length " + length(header);
    }
}
