package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.RollCycle;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** Checks a cycle file's header before anything is mapped, so damage is reported, never mapped and trusted. */
final class CycleFileHeaders {
    private CycleFileHeaders() {
    }

    /** @return the file's block size */
    static long validate(Path path, FileChannel channel, long expectedCycle) {
        ByteBuffer header = ByteBuffer.allocate(CycleHeaderDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        long size;
        try {
            size = channel.size();
            if (size < CycleHeaderDescriptor.HEADER_LENGTH) {
                throw new CorruptQueueException(path, size, "cycle file is " + size + " bytes long, shorter than its "
                        + CycleHeaderDescriptor.HEADER_LENGTH + "-byte header");
            }
            while (header.hasRemaining()) {
                if (channel.read(header, header.position()) < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the header of " + path + ": " + e.getMessage(), e);
        }
        long magic = header.getLong((int) CycleHeaderDescriptor.MAGIC_OFFSET);
        if (magic != CycleHeaderDescriptor.MAGIC) {
            throw CycleFiles.notACycleFile(path, magic);
        }
        int version = header.getInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET);
        require(version == CycleHeaderDescriptor.FORMAT_VERSION || version == CodecDescriptor.CYCLE_FILE_VERSION,
                path, CycleHeaderDescriptor.FORMAT_VERSION_OFFSET, "unsupported cycle file version " + version
                + "; this cq reads versions " + CycleHeaderDescriptor.FORMAT_VERSION + " and "
                + CodecDescriptor.CYCLE_FILE_VERSION);
        long cycle = header.getLong((int) CycleHeaderDescriptor.CYCLE_OFFSET);
        require(cycle == expectedCycle, path, CycleHeaderDescriptor.CYCLE_OFFSET,
                "header names cycle " + cycle + " but the file name stands for cycle " + expectedCycle);
        int indexCount = header.getInt((int) CycleHeaderDescriptor.INDEX_COUNT_OFFSET);
        require(indexCount > 0 && indexCount <= IndexDescriptor.MAX_INDEX_COUNT, path,
                CycleHeaderDescriptor.INDEX_COUNT_OFFSET,
                "index count " + indexCount + " is out of range 1.." + IndexDescriptor.MAX_INDEX_COUNT);
        int spacing = header.getInt((int) CycleHeaderDescriptor.INDEX_SPACING_OFFSET);
        require(spacing > 0 && spacing <= IndexDescriptor.MAX_INDEX_SPACING && Integer.bitCount(spacing) == 1, path,
                CycleHeaderDescriptor.INDEX_SPACING_OFFSET,
                "index spacing " + spacing + " is not a power of two");
        long blockSize = header.getLong((int) CycleHeaderDescriptor.BLOCK_SIZE_OFFSET);
        require(BlockDescriptor.isValidBlockSize(blockSize), path,
                CycleHeaderDescriptor.BLOCK_SIZE_OFFSET, "block size " + blockSize + " is not a multiple of "
                + BlockDescriptor.PAGE
                        + " between " + BlockDescriptor.MIN_BLOCK_SIZE + " and 2^40");
        long dataStart = header.getLong((int) CycleHeaderDescriptor.DATA_START_OFFSET);
        require(dataStart == CycleHeaderDescriptor.dataStart(indexCount), path, CycleHeaderDescriptor.DATA_START_OFFSET,
                "data start " + dataStart + " does not match index count " + indexCount);
        require(IndexDescriptor.indexBlockLength(indexCount) <= BlockDescriptor.maxExcerptSize(blockSize)
                        && dataStart < blockSize, path, CycleHeaderDescriptor.BLOCK_SIZE_OFFSET,
                "block size " + blockSize + " cannot hold the index of " + indexCount + " entries");
        require(size >= dataStart, path, size, "cycle file is " + size + " bytes long, shorter than its header and "
                + "primary index of " + dataStart + " bytes (cut short?)");
        if (version == CodecDescriptor.CYCLE_FILE_VERSION) {
            FileCodecs.read(path, header); // checked here, before anything is mapped; CycleFile reads them again
        }
        return blockSize;
    }

    private static void require(boolean condition, Path path, long position, String problem) {
        if (!condition) {
            throw new CorruptQueueException(path, position, problem);
        }
    }

    /** A new cycle file's header and primary index, as {@link CycleFiles} creates the file with them. */
    static ByteBuffer newHeader(long cycle, RollCycle rollCycle, int indexSpacing, long blockSize, long nowMillis,
                                FileCodecs codecs) {
        int indexCount = rollCycle.indexCount();
        long dataStart = CycleHeaderDescriptor.dataStart(indexCount);
        // The header and the primary index, written whole (their blocks allocated by the write); the records'
        // blocks are reserved a step at a time by the appenders (docs/file-format.md, "Reserving and shrinking").
        ByteBuffer header = ByteBuffer.allocate((int) dataStart).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong((int) CycleHeaderDescriptor.MAGIC_OFFSET, CycleHeaderDescriptor.MAGIC);
        header.putInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET, CycleHeaderDescriptor.FORMAT_VERSION);
        header.putInt((int) CycleHeaderDescriptor.HEADER_LENGTH_OFFSET, CycleHeaderDescriptor.HEADER_LENGTH);
        header.putLong((int) CycleHeaderDescriptor.CYCLE_OFFSET, cycle);
        header.putInt((int) CycleHeaderDescriptor.SEQUENCE_BITS_OFFSET, rollCycle.sequenceBits());
        header.putInt((int) CycleHeaderDescriptor.INDEX_COUNT_OFFSET, indexCount);
        header.putInt((int) CycleHeaderDescriptor.INDEX_SPACING_OFFSET, indexSpacing);
        header.putLong((int) CycleHeaderDescriptor.BLOCK_SIZE_OFFSET, blockSize);
        header.putLong((int) CycleHeaderDescriptor.CREATED_MILLIS_OFFSET, nowMillis);
        header.putLong((int) CycleHeaderDescriptor.DATA_START_OFFSET, dataStart);
        header.putLong((int) CycleHeaderDescriptor.WRITE_POSITION_OFFSET, dataStart);
        header.putLong((int) CycleHeaderDescriptor.SEQUENCE_OFFSET, 0);
        header.putLong((int) CycleHeaderDescriptor.PAGE_HINT_OFFSET, dataStart);
        if (codecs != null) {
            codecs.writeInto(header);
        }
        return header;
    }
}
