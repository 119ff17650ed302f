package io.cq.core.internal.codec;

import io.cq.core.codec.Compression;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/** What the frame writer and reader share: byte order, the compressors by method, the process's nonce session. */
final class Frames {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final int GCM_TAG_BITS = 128;
    static final String CIPHER = "AES/GCM/NoPadding";

    private Frames() {
    }

    /**
     * The first four bytes of every nonce this process makes, random once per JVM: with the table store's serial
     * after it, a nonce repeats only if the serial does (a table store made again over old cycle files, a page
     * of it lost to a power cut) and two processes drew the same 32 bits as well.
     */
    static int session() {
        return Session.VALUE;
    }

    static Compressor compressor(Compression method) {
        return switch (method) {
            case LZ4 -> new Lz4Compressor();
            case DEFLATE -> new DeflateCompressor();
            case NONE -> throw new IllegalArgumentException("no compressor for NONE");
        };
    }

    static void putInt(byte[] a, int at, int v) {
        a[at] = (byte) v;
        a[at + 1] = (byte) (v >>> 8);
        a[at + 2] = (byte) (v >>> 16);
        a[at + 3] = (byte) (v >>> 24);
    }

    static void putLong(byte[] a, int at, long v) {
        putInt(a, at, (int) v);
        putInt(a, at + 4, (int) (v >>> 32));
    }

    static int getInt(byte[] a, int at) {
        return (a[at] & 0xff) | (a[at + 1] & 0xff) << 8 | (a[at + 2] & 0xff) << 16 | (a[at + 3] & 0xff) << 24;
    }

    /** Grows to hold {@code needed}, keeping nothing: callers fill it afresh. */
    static byte[] atLeast(byte[] a, int needed) {
        return a.length >= needed ? a : new byte[Math.max(needed, a.length * 2)];
    }

    /** Loaded by the first encrypted queue only: seeding a SecureRandom costs milliseconds. */
    private static final class Session {
        static final int VALUE = new SecureRandom().nextInt();
    }
}
