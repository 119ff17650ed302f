package io.cq.core.internal.codec;

import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The CRC-32C a checksum-only queue writes after each excerpt, computed over the record in place as it is published
 * (docs/file-format.md, "Excerpt codecs"): such a queue's appender writes excerpts straight into their records like a
 * plain one, and pays only the checksum. One per appender: not thread-safe.
 */
public final class Crc32cTrailer {
    /** The checksum's bytes after the excerpt: a compile-time constant, so naming it loads nothing. */
    public static final int LENGTH = 4;

    /**
     * Up to this many bytes are copied into an array and checksummed there: a buffer view of a mapped segment takes
     * and releases its memory session (two atomic updates) on every call, which costs small excerpts more than a
     * copy does.
     */
    static final int COPY_LIMIT = 512;

    private final CRC32C crc = new CRC32C();
    private final byte[] small = new byte[COPY_LIMIT];
    private final byte[] index = new byte[Long.BYTES];
    /** A view of the chunk last checksummed, for larger excerpts. */
    private MemorySegment viewed;
    private ByteBuffer view;

    /** Whether a queue with these codecs checksums its excerpts in place: checksums on, nothing else. */
    public static boolean inPlace(ExcerptCodecs codecs) {
        return codecs.checksums() && !codecs.encrypted() && codecs.compression() == Compression.NONE;
    }

    /**
     * Appends the CRC-32C of the excerpt's index and {@code length} bytes at {@code at} in {@code chunk} right after
     * them: the index is part of the checksum, so an excerpt read in another's place fails it.
     *
     * @return the record's length with the checksum
     */
    public int append(MemorySegment chunk, long at, int length, long excerptIndex) {
        crc.reset();
        Frames.putLong(index, 0, excerptIndex);
        crc.update(index, 0, Long.BYTES);
        if (length <= COPY_LIMIT) {
            MemorySegment.copy(chunk, Frames.BYTE, at, small, 0, length);
            crc.update(small, 0, length);
        } else if (chunk.byteSize() <= Integer.MAX_VALUE && chunk.isNative()) {
            if (chunk != viewed) {
                view = chunk.asByteBuffer();
                viewed = chunk;
            }
            view.limit((int) at + length).position((int) at);
            crc.update(view);
        } else {
            byte[] copy = new byte[length];
            MemorySegment.copy(chunk, Frames.BYTE, at, copy, 0, length);
            crc.update(copy, 0, length);
        }
        chunk.set(Frames.INT, at + length, (int) crc.getValue());
        return length + LENGTH;
    }
}
