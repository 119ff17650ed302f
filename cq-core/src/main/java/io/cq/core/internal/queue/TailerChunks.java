package io.cq.core.internal.queue;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

import java.lang.foreign.MemorySegment;

/** Which part of its file a {@link StoreTailer} has mapped: the chunk that holds its position, and whole records. */
final class TailerChunks {
    private TailerChunks() {
    }

    /**
     * Maps the chunk that holds the header word at {@code p}; false when the file does not reach it yet. A mapping
     * may end before the chunk does (a shrunk file): {@code chunkEnd} then stops where the header words it covers
     * end, and reading further maps again.
     */
    static boolean mapChunkFor(StoreTailer t, long p) {
        int index = t.file.mapped().chunkIndex(p);
        long start = t.file.mapped().chunkStart(index);
        MemorySegment mapped = t.file.mapped().readableChunk(index, p - start + ExcerptHeaderDescriptor.SIZE);
        if (mapped == null) {
            return false;
        }
        t.chunk = mapped;
        t.chunkStart = start;
        t.chunkEnd = start + Math.min(t.file.blockSize(), mapped.byteSize() - ExcerptHeaderDescriptor.SIZE + 1);
        return true;
    }

    /** A published record always lies in its file; only a mapping made before the file grew may end before it. */
    static void mapWholeRecord(StoreTailer t, long recordEnd) {
        MemorySegment mapped = t.file.mapped().readableChunk(t.file.mapped().chunkIndex(t.position),
                recordEnd - t.chunkStart);
        if (mapped == null) {
            throw new CorruptQueueException(t.file.path(), t.position, "the excerpt's " + t.readLength + " bytes end "
                    + "at " + recordEnd + ", past the end of the file (" + t.file.mapped().size() + " bytes): it was "
                    + "cut short");
        }
        t.chunk = mapped;
        t.chunkEnd = t.chunkStart + Math.min(t.file.blockSize(), mapped.byteSize() - ExcerptHeaderDescriptor.SIZE + 1);
    }
}
