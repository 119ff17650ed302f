package io.cq.core.internal.memory;

import io.cq.core.ExcerptTooLargeException;

import java.lang.foreign.MemorySegment;

/**
 * An appender's own buffer that an excerpt is composed in before it is copied where it goes: a double-buffered
 * appender's while another holds the write lock, an async appender's before it takes the buffer's lock. Grows to the
 * largest excerpt it must hold; kept for the next excerpt unless it grew past 1 MiB. Not thread-safe.
 */
public final class ComposeBuffer {
    /** Most excerpts fit; larger ones double it. */
    private static final int INITIAL = 4096;
    /** Room past the largest excerpt for the cursor's trailer (alignment and the next header word). */
    private static final long SLACK = 64;
    /** Larger buffers are dropped once their excerpt is copied or dropped, and grown again when needed. */
    private static final long RETAINED = 1 << 20;

    private final long maxExcerpt;
    private final long blockSize;
    private final ExcerptReservation growth = new Growth();
    private MemorySegment buffer = MemorySegment.NULL;
    private byte[] array;
    private SegmentCursor cursor;

    /**
     * @param maxExcerpt the largest excerpt it holds
     * @param blockSize  the queue's, for the cursor's errors
     */
    public ComposeBuffer(long maxExcerpt, long blockSize) {
        this.maxExcerpt = maxExcerpt;
        this.blockSize = blockSize;
    }

    /** Binds the cursor for writing an excerpt into this buffer from its first byte. */
    public void bind(SegmentCursor writer) {
        if (buffer.byteSize() == 0) {
            array = new byte[INITIAL];
            buffer = MemorySegment.ofArray(array);
        }
        this.cursor = writer;
        // The buffer stands in for a file from position 0; its "reservation" is its size, grown on demand.
        writer.bindForWrite(buffer, 0, maxExcerpt, blockSize, 0, buffer.byteSize(), growth);
    }

    /** The bytes composed so far start at 0. Read after writing: growing moves them to a larger segment. */
    public MemorySegment segment() {
        return buffer;
    }

    private long grow(long end) {
        // Never past what the largest excerpt needs (and the cursor refuses writes beyond it anyway).
        long size = Math.min(Math.max(buffer.byteSize() * 2, end), maxExcerpt + SLACK);
        if (size > Integer.MAX_VALUE - 8) {
            throw new ExcerptTooLargeException(end, maxExcerpt, blockSize);
        }
        byte[] grown = new byte[(int) size];
        MemorySegment larger = MemorySegment.ofArray(grown);
        MemorySegment.copy(buffer, 0, larger, 0, buffer.byteSize());
        buffer = larger;
        array = grown;
        cursor.moveTo(larger);
        return size;
    }

    /** The array behind {@link #segment()}: the bytes composed so far start at 0. */
    public byte[] array() {
        return array;
    }

    /** An exceptional excerpt's buffer is not kept: appenders lie idle in pools, each with its buffer. */
    public void releaseIfLarge() {
        if (buffer.byteSize() > RETAINED) {
            buffer = MemorySegment.NULL;
            array = null;
        }
    }

    /** A class, not a method reference: the first of those in a JVM generates code on the path to its first excerpt. */
    private final class Growth implements ExcerptReservation {
        @Override
        public long reserveUpTo(long end) {
            return grow(end);
        }
    }
}
