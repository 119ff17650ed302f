package io.cq.core.support;

import io.cq.core.ExcerptBytes;

/** A self-checking excerpt: writer, sequence, then a payload every byte of which follows from the two. */
public final class Excerpts {
    public static final int PAYLOAD = 240;

    private Excerpts() {
    }

    public static byte payloadByte(int writer, int sequence, int i) {
        return (byte) (writer * 31 + sequence * 17 + i * 7);
    }

    /** Writes the first half of the payload; {@link #writeSecondHalf} completes it. */
    public static void writeFirstHalf(ExcerptBytes out, int writer, int sequence) {
        out.writeInt(writer).writeInt(sequence);
        for (int i = 0; i < PAYLOAD / 2; i++) {
            out.writeByte(payloadByte(writer, sequence, i));
        }
    }

    public static void writeSecondHalf(ExcerptBytes out, int writer, int sequence) {
        for (int i = PAYLOAD / 2; i < PAYLOAD; i++) {
            out.writeByte(payloadByte(writer, sequence, i));
        }
    }

    /** Reads and checks one excerpt; returns {@code writer << 32 | sequence}, or throws describing the damage. */
    public static long check(ExcerptBytes in, long index) {
        if (in.length() != 8 + PAYLOAD) {
            throw new AssertionError("excerpt 0x" + Long.toHexString(index) + " has " + in.length() + " bytes, not "
                    + (8 + PAYLOAD));
        }
        int writer = in.readInt();
        int sequence = in.readInt();
        for (int i = 0; i < PAYLOAD; i++) {
            if (in.readByte() != payloadByte(writer, sequence, i)) {
                throw new AssertionError("excerpt 0x" + Long.toHexString(index) + " of writer " + writer + " sequence "
                        + sequence + " is torn at payload byte " + i);
            }
        }
        return (long) writer << 32 | sequence;
    }
}
