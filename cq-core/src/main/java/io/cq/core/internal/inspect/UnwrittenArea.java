package io.cq.core.internal.inspect;

import io.cq.core.QueueException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The part of a cycle file after its last record, which nothing has written: every byte up to the file's end is
 * zero (docs/file-format.md), except the bytes of a record opened there and not published (yet). Other bytes there
 * are damage, such as a page zeroed in the middle of the records, which makes the records after it look like the
 * end of the data.
 */
final class UnwrittenArea {
    private static final MemorySegment ZEROS = Arena.global().allocate(1 << 20);

    private UnwrittenArea() {
    }

    /**
     * Whether the non-zero byte found at {@code nonZero}, after the free header word at {@code end}, is one of a
     * record opened at {@code end} (docs/file-format.md, "Appending", step 5): an excerpt being written, or one its
     * writer never finished. Its writer said so before writing it, on the hints' line.
     */
    static boolean ofOpenRecord(CycleFile file, long end, long nonZero) {
        return file.openRecordHint() == end
                && nonZero < end + ExcerptHeaderDescriptor.SIZE + file.maxExcerptSize();
    }

    /** The position of the first non-zero byte in {@code [from, size)}, or -1 when there is none. */
    static long firstNonZero(CycleFile file, long from, long size) {
        long at = from;
        while (at < size) {
            long chunkStart = file.mapped().chunkStart(file.mapped().chunkIndex(at));
            // Within one chunk's mapping, and within what the file holds.
            long length = Math.min(Math.min(ZEROS.byteSize(), size - at), chunkStart + file.blockSize() - at);
            MemorySegment chunk;
            try {
                chunk = file.mapped().readableChunkAt(at, length);
            } catch (QueueException e) {
                return -1; // cut meanwhile by a last writer closing: what is gone was never written
            }
            long offset = at - chunkStart;
            long mismatch = MemorySegment.mismatch(chunk, offset, offset + length, ZEROS, 0, length);
            if (mismatch >= 0) {
                return at + mismatch;
            }
            at += length;
        }
        return -1;
    }
}
