package io.cq.core.internal.file;

import io.cq.core.internal.layout.CycleFileLayout;
import io.cq.core.internal.layout.Limits;
import io.cq.core.CorruptQueueException;

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
        ByteBuffer header = ByteBuffer.allocate(CycleFileLayout.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        try {
            long size = channel.size();
            if (size < CycleFileLayout.HEADER_LENGTH) {
                throw new CorruptQueueException(path, size, "cycle file is " + size + " bytes long, shorter than its "
                        + CycleFileLayout.HEADER_LENGTH + "-byte header");
            }
            while (header.hasRemaining()) {
                if (channel.read(header, header.position()) < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the header of " + path + ": " + e.getMessage(), e);
        }
        long magic = header.getLong((int) CycleFileLayout.MAGIC_OFFSET);
        if (magic != CycleFileLayout.MAGIC) {
            throw CycleFiles.notACycleFile(path, magic);
        }
        int version = header.getInt((int) CycleFileLayout.FORMAT_VERSION_OFFSET);
        require(version == CycleFileLayout.FORMAT_VERSION, path, CycleFileLayout.FORMAT_VERSION_OFFSET,
                "unsupported cycle file version " + version + "; this cq reads version " + CycleFileLayout.FORMAT_VERSION);
        long cycle = header.getLong((int) CycleFileLayout.CYCLE_OFFSET);
        require(cycle == expectedCycle, path, CycleFileLayout.CYCLE_OFFSET,
                "header names cycle " + cycle + " but the file name stands for cycle " + expectedCycle);
        int indexCount = header.getInt((int) CycleFileLayout.INDEX_COUNT_OFFSET);
        require(indexCount > 0 && indexCount <= 1 << 20, path, CycleFileLayout.INDEX_COUNT_OFFSET,
                "index count " + indexCount + " is out of range 1.." + (1 << 20));
        int spacing = header.getInt((int) CycleFileLayout.INDEX_SPACING_OFFSET);
        require(spacing > 0 && Integer.bitCount(spacing) == 1, path, CycleFileLayout.INDEX_SPACING_OFFSET,
                "index spacing " + spacing + " is not a power of two");
        long blockSize = header.getLong((int) CycleFileLayout.BLOCK_SIZE_OFFSET);
        require(blockSize >= Limits.MIN_BLOCK_SIZE && blockSize % Limits.PAGE == 0 && blockSize <= 1L << 40, path,
                CycleFileLayout.BLOCK_SIZE_OFFSET, "block size " + blockSize + " is not a multiple of " + Limits.PAGE
                        + " between " + Limits.MIN_BLOCK_SIZE + " and 2^40");
        long dataStart = header.getLong((int) CycleFileLayout.DATA_START_OFFSET);
        require(dataStart == CycleFileLayout.dataStart(indexCount), path, CycleFileLayout.DATA_START_OFFSET,
                "data start " + dataStart + " does not match index count " + indexCount);
        require(CycleFileLayout.indexBlockLength(indexCount) <= Limits.maxExcerptSize(blockSize)
                        && dataStart < blockSize, path, CycleFileLayout.BLOCK_SIZE_OFFSET,
                "block size " + blockSize + " cannot hold the index of " + indexCount + " entries");
        return blockSize;
    }

    private static void require(boolean condition, Path path, long position, String problem) {
        if (!condition) {
            throw new CorruptQueueException(path, position, problem);
        }
    }
}
