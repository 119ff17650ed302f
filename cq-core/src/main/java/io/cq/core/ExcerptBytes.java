package io.cq.core;

import java.lang.foreign.MemorySegment;

/**
 * A cursor over the memory of one excerpt, handed out by a {@link WriteContext} or a {@link ReadContext}.
 *
 * <p>Relative operations start at {@link #position()} and advance it; values are little-endian. Writing past
 * the queue's largest excerpt size throws {@link ExcerptTooLargeException} and marks the excerpt to be discarded
 * when its context closes (a message cut short is never published); reading past the excerpt's end throws
 * {@link IndexOutOfBoundsException}. Strings are written as a variable-length byte count followed by UTF-8
 * bytes, so they can be read back one after another.
 *
 * <p>A cursor is a flyweight owned by its appender or tailer and reused for the next excerpt: it is valid only
 * until its context closes, and, like its owner, it is not thread-safe. None of its methods allocate except
 * {@link #readUtf8()} and {@link #segment()}, whose results are new objects.
 */
public interface ExcerptBytes {
    /** Offset of the next relative read or write, from the start of the excerpt. */
    long position();

    /** Moves the cursor; for a write, the excerpt's length becomes the position at commit. */
    ExcerptBytes position(long position);

    /** Length of the excerpt being read, or the bytes written so far (the position) when writing. */
    long length();

    /**
     * Bytes left: to the end of the excerpt (or the {@link #readLimit()}) when reading, to the size limit when writing.
     */
    long remaining();

    /** When reading, where reads must stop: the excerpt's length unless narrowed by {@link #readLimit(long)}. */
    long readLimit();

    /**
     * When reading, narrows where reads must stop (or widens it again, up to the excerpt's length), so that code
     * reading a nested part (a self-written message inside a message) sees that part's end as the end: reading past
     * it fails, and {@link #remaining()} counts to it.
     *
     * @throws IllegalStateException     when the cursor is writing
     * @throws IndexOutOfBoundsException when {@code limit} is below the position or beyond the excerpt
     */
    ExcerptBytes readLimit(long limit);

    /**
     * The excerpt's memory as a segment: the whole excerpt when reading (read-only), the space from the start
     * up to the size limit when writing. After writing into it directly, move {@link #position(long)} past
     * what was written: only bytes before the position become part of the excerpt.
     */
    MemorySegment segment();

    ExcerptBytes writeByte(byte value);

    ExcerptBytes writeBoolean(boolean value);

    ExcerptBytes writeShort(short value);

    ExcerptBytes writeChar(char value);

    ExcerptBytes writeInt(int value);

    ExcerptBytes writeLong(long value);

    ExcerptBytes writeFloat(float value);

    ExcerptBytes writeDouble(double value);

    /** Writes a length and the text's UTF-8 bytes; {@code null} is kept as null. */
    ExcerptBytes writeUtf8(CharSequence text);

    ExcerptBytes writeBytes(byte[] bytes);

    ExcerptBytes writeBytes(byte[] bytes, int offset, int length);

    /** Copies a whole segment (on or off heap) into the excerpt. */
    ExcerptBytes writeSegment(MemorySegment source);

    /** Writes at an absolute offset below {@link #position()}, e.g. to fill in a length reserved earlier. */
    ExcerptBytes writeIntAt(long offset, int value);

    /** Writes at an absolute offset below {@link #position()}. */
    ExcerptBytes writeLongAt(long offset, long value);

    byte readByte();

    boolean readBoolean();

    short readShort();

    char readChar();

    int readInt();

    long readLong();

    float readFloat();

    double readDouble();

    /** Reads text written by {@link #writeUtf8(CharSequence)}; allocates the String. */
    String readUtf8();

    /**
     * Appends text written by {@link #writeUtf8(CharSequence)} to {@code into}, without allocating when it has
     * room; returns false (appending nothing) when the text was written as null.
     */
    boolean readUtf8(StringBuilder into);

    /** Fills the array from the cursor. */
    ExcerptBytes readBytes(byte[] into);

    ExcerptBytes readBytes(byte[] into, int offset, int length);

    int readIntAt(long offset);

    long readLongAt(long offset);
}
