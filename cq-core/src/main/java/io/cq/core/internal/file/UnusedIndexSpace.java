package io.cq.core.internal.file;

import io.cq.core.QueueFilesystem;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.NativeIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gives back to the file system the blocks of a finished cycle's index slots that were never written: the tail of
 * the primary index and of the last secondary index block, which hold only zeros (docs/file-format.md, "Unused index
 * space"). A cycle of a hundred excerpts otherwise keeps two whole index blocks' worth of zeros, 64 KiB for
 * {@code MINUTELY} and 256 KiB for {@code XLARGE_DAILY}.
 *
 * <p>Done only where reading a hole through a mapping allocates nothing (ext4, xfs): on tmpfs such a read takes a
 * page of the file system's memory, and on a full tmpfs the reader would get SIGBUS. Needs native access
 * ({@code fallocate(FALLOC_FL_PUNCH_HOLE)}); without it a finished cycle keeps its index blocks whole.
 */
public final class UnusedIndexSpace {
    /** File systems on which a hole reads as zeros through a mapping without allocating anything. */
    private static final Set<String> HOLES_READ_WITHOUT_ALLOCATING = Set.of("ext2", "ext3", "ext4", "xfs");
    /** The smallest page size holes are punched in; the system's own is used, a file system block is no larger. */
    private static final long MIN_PAGE = 4096;
    /** Slots read at a time while looking for the last one written. */
    private static final int SLOTS_PER_READ = 8192;

    private UnusedIndexSpace() {
    }

    /** Whether finished cycles of a queue on this file system get their unused index space given back. */
    public static boolean appliesTo(QueueFilesystem filesystem) {
        return HOLES_READ_WITHOUT_ALLOCATING.contains(filesystem.type());
    }

    /** {@link #release} for the background thread: a failure only costs disk space, and is logged. */
    static void releaseOrWarn(Path file) {
        try {
            release(file);
        } catch (IOException | RuntimeException e) {
            Log.warning(UnusedIndexSpace.class, "could not give back the unused index space of " + file
                    + "; it keeps it", e);
        }
    }

    /**
     * Punches holes over the unused index slots of a finished cycle file. Needs no lock: nobody writes to a finished
     * cycle again, and the ranges hold zeros, which is what a hole reads as. A file that is gone (deleted by
     * retention meanwhile), that does not end with its end-of-cycle mark, or that is not the file that was read any
     * more when the holes are punched (its device and inode, checked on the descriptor that punches) is left alone.
     *
     * @return the bytes of the ranges punched; 0 when nothing was done
     */
    public static long release(Path file) throws IOException {
        long page = NativeIo.pageSize();
        if (page < MIN_PAGE || Long.bitCount(page) != 1) {
            return 0; // no native access: nothing can be punched, so nothing is read either
        }
        List<long[]> ranges;
        Map<String, Object> identity;
        try {
            identity = Files.readAttributes(file, "unix:dev,ino");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                ranges = unusedRanges(channel, page);
            }
        } catch (NoSuchFileException e) {
            return 0;
        } catch (UnsupportedOperationException e) {
            return 0; // no "unix" attribute view (not a Unix file system): the file's identity cannot be checked
        }
        try {
            return NativeIo.punchHoles(file, (Long) identity.get("dev"), (Long) identity.get("ino"), ranges);
        } catch (IOException e) {
            if (Files.notExists(file)) {
                return 0; // deleted by retention meanwhile: nothing left to give back
            }
            throw e;
        }
    }

    /**
     * The ranges {@code [from, to)}, in whole pages of {@code page} bytes (the system's: a write into a page that
     * covers a hole would need the hole's blocks), of a finished cycle file that hold only unused index slots; none
     * for a file that is not a finished cycle file as this version writes them.
     */
    static List<long[]> unusedRanges(FileChannel channel, long page) throws IOException {
        List<long[]> ranges = new ArrayList<>(2);
        long size = channel.size();
        ByteBuffer header = read(channel, 0, CycleHeaderDescriptor.HEADER_LENGTH);
        if (header == null || header.getLong((int) CycleHeaderDescriptor.MAGIC_OFFSET) != CycleHeaderDescriptor.MAGIC
                || header.getInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET)
                != CycleHeaderDescriptor.FORMAT_VERSION) {
            return ranges;
        }
        int indexCount = header.getInt((int) CycleHeaderDescriptor.INDEX_COUNT_OFFSET);
        long dataStart = header.getLong((int) CycleHeaderDescriptor.DATA_START_OFFSET);
        if (indexCount < 1 || indexCount > IndexDescriptor.MAX_INDEX_COUNT
                || dataStart != CycleHeaderDescriptor.dataStart(indexCount)
                || size < dataStart + ExcerptHeaderDescriptor.SIZE) {
            return ranges;
        }
        ByteBuffer last = read(channel, size - ExcerptHeaderDescriptor.SIZE, ExcerptHeaderDescriptor.SIZE);
        if (last == null || !ExcerptHeaderDescriptor.isEndOfCycle(last.getInt(0))) {
            return ranges; // not finished: an appender may still write entries into it
        }
        int block = lastWrittenSlot(channel, IndexDescriptor.PRIMARY_INDEX_OFFSET, indexCount);
        addPages(ranges, IndexDescriptor.primaryEntryOffset(block + 1), dataStart, page);
        if (block < 0) {
            return ranges;
        }
        ByteBuffer slot = read(channel, IndexDescriptor.primaryEntryOffset(block), Long.BYTES);
        long blockPosition = slot == null ? 0 : slot.getLong(0);
        int blockLength = IndexDescriptor.indexBlockLength(indexCount);
        if (blockPosition < dataStart || (blockPosition & (ExcerptHeaderDescriptor.ALIGNMENT - 1)) != 0
                || blockPosition + ExcerptHeaderDescriptor.SIZE + blockLength > size) {
            return ranges;
        }
        ByteBuffer blockHeader = read(channel, blockPosition, ExcerptHeaderDescriptor.SIZE);
        if (blockHeader == null || blockHeader.getInt(0) != ExcerptHeaderDescriptor.meta(blockLength)) {
            return ranges;
        }
        long entries = IndexDescriptor.secondaryEntryPosition(blockPosition, 0);
        int entry = lastWrittenSlot(channel, entries, indexCount);
        addPages(ranges, entries + (entry + 1L) * Long.BYTES, entries + (long) indexCount * Long.BYTES, page);
        return ranges;
    }

    /** Adds the whole pages inside {@code [from, to)}, if any. */
    private static void addPages(List<long[]> ranges, long from, long to, long page) {
        long first = (from + page - 1) & -page;
        long end = to & -page;
        if (end > first) {
            ranges.add(new long[] {first, end});
        }
    }

    /** The last of {@code count} 8-byte slots from {@code start} that is not zero, or -1. Reads from the end. */
    private static int lastWrittenSlot(FileChannel channel, long start, int count) throws IOException {
        for (int end = count; end > 0; end -= SLOTS_PER_READ) {
            int from = Math.max(0, end - SLOTS_PER_READ);
            ByteBuffer slots = read(channel, start + (long) from * Long.BYTES, (end - from) * Long.BYTES);
            if (slots == null) {
                return count - 1; // cannot tell: take every slot as written
            }
            for (int i = end - from - 1; i >= 0; i--) {
                if (slots.getLong(i * Long.BYTES) != 0) {
                    return from + i;
                }
            }
        }
        return -1;
    }

    /** {@code length} bytes at {@code position}, little-endian; null when the file ends before them. */
    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                return null;
            }
        }
        return buffer.flip();
    }
}
