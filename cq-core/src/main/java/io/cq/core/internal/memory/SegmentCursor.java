package io.cq.core.internal.memory;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTooLargeException;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The {@link ExcerptBytes} flyweight: a window {@code [base, base + limit)} of a mapped chunk. Bound to the next
 * excerpt by its appender or tailer, never reallocated. Bounds are checked here against the excerpt (so the
 * error speaks of the excerpt) and again by the segment against the chunk.
 *
 * <p>Writing stays within the file's reserved blocks: past {@code writeLimit} a write first asks its
 * {@link Reservation} for more (a slow path once a reservation step), so no byte is ever written to a page the
 * file system has not backed (docs/file-format.md, "Reserving and shrinking").
 */
public final class SegmentCursor implements ExcerptBytes {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfChar CHAR = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(LE);

    /** Bytes after a record that must be reserved with it: alignment, and the free header word that follows. */
    private static final long TRAILER = ExcerptHeaderDescriptor.ALIGNMENT - 1 + ExcerptHeaderDescriptor.SIZE;

    /**
     * Whether this JVM has linked the JDK's copies between arrays and segments: their first use links a type switch
     * inside the JDK, about 3 ms of code generation on a new queue's path to its first excerpt. Until
     * {@link FfmWarmUp} has done that on its own thread (started by the first copy taking the other way), arrays are
     * copied through a byte buffer view of the slice, whose first use costs a tenth of a heap segment's (0.2 against
     * 1.8 ms) and which allocates two small objects a copy. A plain field: a thread that sees it late only takes the
     * other, equivalent copy.
     */
    private static boolean arrayCopiesLinked;

    /** Reserves the file's blocks for a write that goes further than what was reserved when it started. */
    public interface Reservation {
        /**
         * @return the new reserved end, at least {@code end} (a file position)
         * @throws java.io.UncheckedIOException when the blocks cannot be allocated (a full disk)
         */
        long reserveUpTo(long end);
    }

    private MemorySegment segment = MemorySegment.NULL;
    private long base;
    private long limit;
    /** Writes below it need nothing more; -1 while reading, so that the one check of a write sends it aside. */
    private long writeLimit = -1;
    private long baseFilePosition;
    private Reservation reservation;
    /** When reading, the excerpt's length; {@link #limit} may be narrowed below it by {@link #readLimit(long)}. */
    private long readLength;
    private long position;
    /** While writing: the furthest the position was before it was last moved back (see {@link #writtenExtent}). */
    private long highWater;
    private boolean writing;
    private boolean failed;
    private long blockSize;
    /** Non-zero while the excerpt's limit is an async buffer's (of this size), for the error that names it. */
    private long asyncBufferSize;

    /**
     * @param baseFilePosition the file position of {@code base}, the excerpt's first byte
     * @param reservedEnd      how far the file's blocks are reserved
     */
    public void bindForWrite(MemorySegment segment, long base, long capacity, long blockSize, long baseFilePosition,
                             long reservedEnd, Reservation reservation) {
        this.segment = segment;
        this.base = base;
        this.limit = capacity;
        this.position = 0;
        this.writing = true;
        this.failed = false;
        this.blockSize = blockSize;
        this.baseFilePosition = baseFilePosition;
        this.reservation = reservation;
        this.writeLimit = Math.min(capacity, reservedEnd - baseFilePosition - TRAILER);
        this.highWater = 0;
        this.asyncBufferSize = 0;
    }

    /** Says that the excerpt's limit comes from an async buffer of {@code bufferSize} bytes: its error names it. */
    public void limitedByAsyncBuffer(long bufferSize) {
        this.asyncBufferSize = bufferSize;
    }

    /** How many bytes of the excerpt being written may have been written to: for zeroing a discarded one. */
    public long writtenExtent() {
        return Math.min(Math.max(highWater, position), limit);
    }

    /**
     * Moves the excerpt being written to a larger segment holding the same bytes: a double-buffered appender's
     * buffer, grown by its {@link Reservation}.
     */
    public void moveTo(MemorySegment larger) {
        this.segment = larger;
    }

    public void bindForRead(MemorySegment segment, long base, long length) {
        this.segment = segment;
        this.base = base;
        this.limit = length;
        this.readLength = length;
        this.position = 0;
        this.writing = false;
        this.writeLimit = -1;
    }

    public void unbind() {
        this.segment = MemorySegment.NULL;
        this.limit = 0;
        this.writeLimit = -1;
        this.position = 0;
        this.reservation = null;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public ExcerptBytes position(long newPosition) {
        if (newPosition < 0 || newPosition > limit) {
            throw new IndexOutOfBoundsException("position " + newPosition + " is outside the excerpt's 0.." + limit);
        }
        if (writing) {
            ensureWritable(newPosition);
            // Kept here, not on every write: writes only move forward, so the furthest point is either the position
            // or where it stood before a move back.
            highWater = Math.max(highWater, position);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long length() {
        return writing ? position : readLength;
    }

    @Override
    public long readLimit() {
        return limit;
    }

    @Override
    public ExcerptBytes readLimit(long newLimit) {
        if (writing) {
            throw new IllegalStateException("a read limit applies to reading; this cursor is writing an excerpt");
        }
        if (newLimit < position || newLimit > readLength) {
            throw new IndexOutOfBoundsException("read limit " + newLimit + " is outside " + position + ".." + readLength
                    + " (the position and the excerpt's length)");
        }
        limit = newLimit;
        return this;
    }

    @Override
    public long remaining() {
        return limit - position;
    }

    @Override
    public MemorySegment segment() {
        if (writing) {
            ensureWritable(limit);
        }
        MemorySegment slice = segment.asSlice(base, limit);
        return writing ? slice : slice.asReadOnly();
    }

    // ---- writing ----------------------------------------------------------------------------------------

    /**
     * Claims {@code bytes} at the position and returns where they start in {@link #segment}. Callers read the segment
     * after claiming: a claim may move a buffered excerpt to a larger segment ({@link #moveTo}).
     */
    private long claim(long bytes) {
        long p = position;
        if (p + bytes > writeLimit) {
            return claimSlow(bytes);
        }
        position = p + bytes;
        return base + p;
    }

    /** Past the reserved blocks, or not writing at all, or past the excerpt's largest size. */
    private long claimSlow(long bytes) {
        long p = position;
        if (!writing || p + bytes > limit) {
            throw writeFailure(p + bytes);
        }
        ensureWritable(p + bytes);
        position = p + bytes;
        return base + p;
    }

    /**
     * Makes sure the first {@code end} bytes of the excerpt being written lie on reserved blocks, reserving more
     * when they do not; a failure fails the excerpt, which is then discarded, not published.
     */
    public void ensureWritable(long end) {
        if (end <= writeLimit) {
            return;
        }
        try {
            long reserved = reservation.reserveUpTo(baseFilePosition + end + TRAILER);
            writeLimit = Math.min(limit, reserved - baseFilePosition - TRAILER);
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        }
    }

    private RuntimeException writeFailure(long required) {
        if (segment == MemorySegment.NULL) {
            // Unbound: its context was closed (or never opened). Not a size problem, whatever the limit of 0 says.
            return new IllegalStateException("the context of this cursor is closed: open another with "
                    + "writingDocument() to write an excerpt");
        }
        if (!writing) {
            return new IllegalStateException("this excerpt is being read; it cannot be written to");
        }
        failed = true;
        return asyncBufferSize > 0 ? ExcerptTooLargeException.ofAsyncBuffer(required, limit, asyncBufferSize)
                : new ExcerptTooLargeException(required, limit, blockSize);
    }

    /**
     * Whether a write failed (past the size limit, or no block could be reserved for it): the excerpt is then
     * discarded rather than published cut short.
     */
    public boolean failed() {
        return failed;
    }

    @Override
    public ExcerptBytes writeByte(byte value) {
        long at = claim(1);
        segment.set(ValueLayout.JAVA_BYTE, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeBoolean(boolean value) {
        return writeByte(value ? (byte) 1 : (byte) 0);
    }

    @Override
    public ExcerptBytes writeShort(short value) {
        long at = claim(2);
        segment.set(SHORT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeChar(char value) {
        long at = claim(2);
        segment.set(CHAR, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeInt(int value) {
        long at = claim(4);
        segment.set(INT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeLong(long value) {
        long at = claim(8);
        segment.set(LONG, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeFloat(float value) {
        long at = claim(4);
        segment.set(FLOAT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeDouble(double value) {
        long at = claim(8);
        segment.set(DOUBLE, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeUtf8(CharSequence text) {
        if (text == null) {
            writeVarLong(0);
            return this;
        }
        long encoded = Utf8.encodedLength(text);
        writeVarLong(encoded + 1);
        long offset = claim(encoded);
        Utf8.encode(text, segment, offset, offset + encoded);
        return this;
    }

    /** Unsigned LEB128: seven bits a byte, low bits first, high bit set on all but the last byte. */
    private void writeVarLong(long value) {
        while ((value & ~0x7FL) != 0) {
            writeByte((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        writeByte((byte) value);
    }

    /** Set by {@link FfmWarmUp} once the JDK's array copies are linked in this JVM (and by tests, both ways). */
    static void arrayCopiesLinked(boolean linked) {
        arrayCopiesLinked = linked;
    }

    static boolean arrayCopiesLinked() {
        return arrayCopiesLinked;
    }

    @Override
    public ExcerptBytes writeBytes(byte[] bytes) {
        return writeBytes(bytes, 0, bytes.length);
    }

    @Override
    public ExcerptBytes writeBytes(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        long at = claim(length);
        if (arrayCopiesLinked) {
            MemorySegment.copy(bytes, offset, segment, ValueLayout.JAVA_BYTE, at, length);
        } else {
            segment.asSlice(at, length).asByteBuffer().put(bytes, offset, length);
            FfmWarmUp.linkArrayCopiesInBackground();
        }
        return this;
    }

    @Override
    public ExcerptBytes writeSegment(MemorySegment source) {
        return writeSegment(source, 0, source.byteSize());
    }

    /** Writes {@code length} bytes of {@code source} from {@code offset}, without slicing it (nothing allocated). */
    public ExcerptBytes writeSegment(MemorySegment source, long offset, long length) {
        long at = claim(length);
        MemorySegment.copy(source, offset, segment, at, length);
        return this;
    }

    private long absolute(long offset, int bytes, boolean write) {
        long end = write ? position : limit;
        if (offset < 0 || offset + bytes > end) {
            throw new IndexOutOfBoundsException(bytes + " bytes at offset " + offset + " are outside the excerpt's 0.."
                    + end
                    + (write ? " (absolute writes must lie below the position)" : ""));
        }
        if (write && !writing) {
            throw writeFailure(offset + bytes);
        }
        return base + offset;
    }

    @Override
    public ExcerptBytes writeIntAt(long offset, int value) {
        segment.set(INT, absolute(offset, 4, true), value);
        return this;
    }

    @Override
    public ExcerptBytes writeLongAt(long offset, long value) {
        segment.set(LONG, absolute(offset, 8, true), value);
        return this;
    }

    // ---- reading ----------------------------------------------------------------------------------------

    private long take(long bytes) {
        long p = position;
        // Compared without adding: a length read from the data may be near Long.MAX_VALUE.
        if (bytes < 0 || bytes > limit - p) {
            throw new IndexOutOfBoundsException("cannot read " + bytes + " bytes at " + p + ": the excerpt has "
                    + limit);
        }
        position = p + bytes;
        return base + p;
    }

    @Override
    public byte readByte() {
        return segment.get(ValueLayout.JAVA_BYTE, take(1));
    }

    @Override
    public boolean readBoolean() {
        return readByte() != 0;
    }

    @Override
    public short readShort() {
        return segment.get(SHORT, take(2));
    }

    @Override
    public char readChar() {
        return segment.get(CHAR, take(2));
    }

    @Override
    public int readInt() {
        return segment.get(INT, take(4));
    }

    @Override
    public long readLong() {
        return segment.get(LONG, take(8));
    }

    @Override
    public float readFloat() {
        return segment.get(FLOAT, take(4));
    }

    @Override
    public double readDouble() {
        return segment.get(DOUBLE, take(8));
    }

    private long readVarLong() {
        long start = position;
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = readByte();
            if (shift == 63 && (b & 0x7E) != 0) {
                break;
            }
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                if (value < 0) {
                    break;
                }
                return value;
            }
        }
        throw new IndexOutOfBoundsException("malformed length at " + start + ": not a length of at most 63 bits");
    }

    @Override
    public String readUtf8() {
        long encoded = readVarLong();
        if (encoded == 0) {
            return null;
        }
        long length = encoded - 1;
        if (length < 0 || length > Integer.MAX_VALUE - 16) {
            throw new IndexOutOfBoundsException("text of " + length + " bytes is longer than a String can be");
        }
        long offset = take(length);
        StringBuilder text = new StringBuilder((int) length);
        Utf8.decode(segment, offset, length, text);
        return text.toString();
    }

    @Override
    public boolean readUtf8(StringBuilder into) {
        long encoded = readVarLong();
        if (encoded == 0) {
            return false;
        }
        long length = encoded - 1;
        long offset = take(length);
        Utf8.decode(segment, offset, length, into);
        return true;
    }

    @Override
    public ExcerptBytes readBytes(byte[] into) {
        return readBytes(into, 0, into.length);
    }

    @Override
    public ExcerptBytes readBytes(byte[] into, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, into.length);
        if (arrayCopiesLinked) {
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, take(length), into, offset, length);
        } else {
            segment.asSlice(take(length), length).asByteBuffer().get(into, offset, length);
            FfmWarmUp.linkArrayCopiesInBackground();
        }
        return this;
    }

    @Override
    public int readIntAt(long offset) {
        return segment.get(INT, absolute(offset, 4, false));
    }

    @Override
    public long readLongAt(long offset) {
        return segment.get(LONG, absolute(offset, 8, false));
    }
}
