package io.cq.core.internal.memory;

import io.cq.core.ExcerptBytes;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The {@link ExcerptBytes} flyweight: a window {@code [base, base + limit)} of a mapped chunk. Bound to the next
 * excerpt by its appender or tailer, never reallocated. Bounds are checked here against the excerpt (so the
 * error speaks of the excerpt) and again by the segment against the chunk.
 *
 * <p>Writing stays within the file's reserved blocks: past {@code writeLimit} a write first asks its
 * {@link ExcerptReservation} for more (a slow path once a reservation step), so no byte is ever written to a page the
 * file system has not backed (docs/file-format.md, "Reserving and shrinking").
 */
public final class SegmentCursor implements ExcerptBytes {
    /** Bytes after a record that must be reserved with it: alignment, and the free header word that follows. */
    private static final long TRAILER = ExcerptHeaderDescriptor.ALIGNMENT - 1 + ExcerptHeaderDescriptor.SIZE;

    private MemorySegment segment = MemorySegment.NULL;
    private long base;
    private long limit;
    /** Writes below it need nothing more; -1 while reading, so that the one check of a write sends it aside. */
    private long writeLimit = -1;
    private long baseFilePosition;
    private ExcerptReservation reservation;
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
                             long reservedEnd, ExcerptReservation reservation) {
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

    /** Moves the excerpt being written to a larger segment holding the same bytes: a compose buffer, grown. */
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

    /** The mapped (or buffered) segment the excerpt lies in; read it after a claim, which may move the excerpt. */
    MemorySegment backing() {
        return segment;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public ExcerptBytes position(long newPosition) {
        if (newPosition < 0 || newPosition > limit) {
            throw CursorErrors.positionOutside(newPosition, limit);
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
        if (writing || newLimit < position || newLimit > readLength) {
            throw CursorErrors.readLimitRefused(writing, newLimit, position, readLength);
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

    /**
     * Claims {@code bytes} at the position and returns where they start in {@link #segment}. Callers read the segment
     * after claiming: a claim may move a buffered excerpt to a larger segment ({@link #moveTo}).
     */
    long claim(long bytes) {
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
        boolean bound = segment != MemorySegment.NULL;
        if (bound && writing) {
            failed = true; // a size problem; the other two are misuse, and leave the excerpt as it was
        }
        return CursorErrors.writeRefused(bound, writing, required, limit, blockSize, asyncBufferSize);
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
        segment.set(Memory.UNALIGNED_SHORT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeChar(char value) {
        long at = claim(2);
        segment.set(Memory.UNALIGNED_CHAR, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeInt(int value) {
        long at = claim(4);
        segment.set(Memory.UNALIGNED_INT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeLong(long value) {
        long at = claim(8);
        segment.set(Memory.UNALIGNED_LONG, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeFloat(float value) {
        long at = claim(4);
        segment.set(Memory.UNALIGNED_FLOAT, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeDouble(double value) {
        long at = claim(8);
        segment.set(Memory.UNALIGNED_DOUBLE, at, value);
        return this;
    }

    @Override
    public ExcerptBytes writeUtf8(CharSequence text) {
        StopBitText.write(this, text);
        return this;
    }

    @Override
    public ExcerptBytes writeBytes(byte[] bytes) {
        return writeBytes(bytes, 0, bytes.length);
    }

    @Override
    public ExcerptBytes writeBytes(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        long at = claim(length);
        FfmWarmUp.copy(bytes, offset, segment, at, length);
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
            throw CursorErrors.offsetOutside(offset, bytes, end, write);
        }
        if (write && !writing) {
            throw writeFailure(offset + bytes);
        }
        return base + offset;
    }

    @Override
    public ExcerptBytes writeIntAt(long offset, int value) {
        segment.set(Memory.UNALIGNED_INT, absolute(offset, 4, true), value);
        return this;
    }

    @Override
    public ExcerptBytes writeLongAt(long offset, long value) {
        segment.set(Memory.UNALIGNED_LONG, absolute(offset, 8, true), value);
        return this;
    }

    long take(long bytes) {
        long p = position;
        // Compared without adding: a length read from the data may be near Long.MAX_VALUE.
        if (bytes < 0 || bytes > limit - p) {
            throw CursorErrors.readOutside(bytes, p, limit);
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
        return segment.get(Memory.UNALIGNED_SHORT, take(2));
    }

    @Override
    public char readChar() {
        return segment.get(Memory.UNALIGNED_CHAR, take(2));
    }

    @Override
    public int readInt() {
        return segment.get(Memory.UNALIGNED_INT, take(4));
    }

    @Override
    public long readLong() {
        return segment.get(Memory.UNALIGNED_LONG, take(8));
    }

    @Override
    public float readFloat() {
        return segment.get(Memory.UNALIGNED_FLOAT, take(4));
    }

    @Override
    public double readDouble() {
        return segment.get(Memory.UNALIGNED_DOUBLE, take(8));
    }

    @Override
    public String readUtf8() {
        return StopBitText.read(this);
    }

    @Override
    public boolean readUtf8(StringBuilder into) {
        return StopBitText.read(this, into);
    }

    @Override
    public ExcerptBytes readBytes(byte[] into) {
        return readBytes(into, 0, into.length);
    }

    @Override
    public ExcerptBytes readBytes(byte[] into, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, into.length);
        FfmWarmUp.copy(segment, take(length), into, offset, length);
        return this;
    }

    @Override
    public int readIntAt(long offset) {
        return segment.get(Memory.UNALIGNED_INT, absolute(offset, 4, false));
    }

    @Override
    public long readLongAt(long offset) {
        return segment.get(Memory.UNALIGNED_LONG, absolute(offset, 8, false));
    }
}
