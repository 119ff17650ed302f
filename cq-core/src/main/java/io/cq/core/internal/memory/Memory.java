package io.cq.core.internal.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian access to mapped memory, with the memory ordering in the method name. Files are
 * little-endian on every platform (docs/file-format.md); on x86 and ARM these are plain loads and stores.
 */
public final class Memory {
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    // Unaligned, for an excerpt's fields, which lie wherever its writer put them (SegmentCursor).
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    static final ValueLayout.OfShort UNALIGNED_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    static final ValueLayout.OfChar UNALIGNED_CHAR = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(LE);
    static final ValueLayout.OfInt UNALIGNED_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE);
    static final ValueLayout.OfLong UNALIGNED_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LE);
    static final ValueLayout.OfFloat UNALIGNED_FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LE);
    static final ValueLayout.OfDouble UNALIGNED_DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(LE);

    private static final VarHandle INT_HANDLE = INT.varHandle();
    private static final VarHandle LONG_HANDLE = LONG.varHandle();

    private Memory() {
    }

    public static int getIntAcquire(MemorySegment segment, long offset) {
        return (int) INT_HANDLE.getAcquire(segment, offset);
    }

    public static void putIntRelease(MemorySegment segment, long offset, int value) {
        INT_HANDLE.setRelease(segment, offset, value);
    }

    public static int getIntVolatile(MemorySegment segment, long offset) {
        return (int) INT_HANDLE.getVolatile(segment, offset);
    }

    public static void putIntVolatile(MemorySegment segment, long offset, int value) {
        INT_HANDLE.setVolatile(segment, offset, value);
    }

    public static int getInt(MemorySegment segment, long offset) {
        return segment.get(INT, offset);
    }

    public static void putInt(MemorySegment segment, long offset, int value) {
        segment.set(INT, offset, value);
    }

    public static long getLongAcquire(MemorySegment segment, long offset) {
        return (long) LONG_HANDLE.getAcquire(segment, offset);
    }

    public static long getLongVolatile(MemorySegment segment, long offset) {
        return (long) LONG_HANDLE.getVolatile(segment, offset);
    }

    public static void putLongRelease(MemorySegment segment, long offset, long value) {
        LONG_HANDLE.setRelease(segment, offset, value);
    }

    public static void putLongVolatile(MemorySegment segment, long offset, long value) {
        LONG_HANDLE.setVolatile(segment, offset, value);
    }

    public static long getLong(MemorySegment segment, long offset) {
        return segment.get(LONG, offset);
    }

    public static void putLong(MemorySegment segment, long offset, long value) {
        segment.set(LONG, offset, value);
    }

    public static boolean casInt(MemorySegment segment, long offset, int expected, int value) {
        return INT_HANDLE.compareAndSet(segment, offset, expected, value);
    }

    public static boolean casLong(MemorySegment segment, long offset, long expected, long value) {
        return LONG_HANDLE.compareAndSet(segment, offset, expected, value);
    }

    public static long getAndAddLong(MemorySegment segment, long offset, long delta) {
        return (long) LONG_HANDLE.getAndAdd(segment, offset, delta);
    }
}
