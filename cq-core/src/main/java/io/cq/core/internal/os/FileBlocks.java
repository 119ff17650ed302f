package io.cq.core.internal.os;

import io.cq.core.internal.os.NativeAccess.Calls;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * A file's blocks through {@code fallocate(2)} and {@code stat(2)}, where {@link NativeAccess} has linked them:
 * reserving them before they are mapped, so that a full disk is an {@link IOException} when a block is allocated
 * instead of a crash on the first write into the mapping; giving unused ones back; counting what a file takes.
 */
public final class FileBlocks {
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final int ENOSPC = 28;
    private static final int EOPNOTSUPP = 95;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int FALLOC_FL_PUNCH_HOLE = 2;
    private static final long STAT_BUFFER_SIZE = 256;
    private static final long ST_BLOCKS_OFFSET = 64;
    private static final long STAT_BLOCK_SIZE = 512;
    /** st_dev and st_ino lead struct stat on x86-64 and aarch64 alike. */
    private static final long ST_DEV_OFFSET = 0;
    private static final long ST_INO_OFFSET = 8;

    private FileBlocks() {
    }

    /**
     * The bytes a file's allocated blocks take on disk ({@code st_blocks × 512}, what {@code du} counts), or -1 where
     * that cannot be read here (no native access, or a C library or platform this does not know).
     */
    public static long allocatedBytes(Path file) {
        if (!NativeAccess.canReserveBlocks() || Calls.STAT == null) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            // struct stat is 144 bytes on x86-64 and 128 on aarch64; st_blocks is at offset 64 on both.
            MemorySegment buffer = arena.allocate(STAT_BUFFER_SIZE, Long.BYTES);
            int result = (int) Calls.STAT.invokeExact(arena.allocateFrom(file.toString()), buffer);
            return result == 0 ? buffer.get(ValueLayout.JAVA_LONG, ST_BLOCKS_OFFSET) * STAT_BLOCK_SIZE : -1;
        } catch (Throwable e) {
            return -1;
        }
    }

    /**
     * Allocates the blocks of {@code [offset, offset + length)} of a file with {@code fallocate(2)}, writing nothing.
     * With {@code keepSize} the file's length never changes (blocks past its end stay outside it), which is what
     * a caller without the write lock uses; otherwise the file grows to cover the range.
     *
     * @return false where the file system cannot allocate without writing (EOPNOTSUPP) or this is not available:
     *         nothing was done
     * @throws IOException naming the file and the range when the disk is full or the call fails otherwise
     */
    public static boolean reserve(Path file, long offset, long length, boolean keepSize) throws IOException {
        if (!NativeAccess.canReserveBlocks()) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            return reserve(arena.allocateFrom(file.toString()), file, offset, length, keepSize);
        }
    }

    /**
     * {@link #reserve(Path, long, long, boolean)} with the file's name already in native memory (a C string), so that
     * a file reserved a step at a time allocates nothing each time.
     */
    public static boolean reserve(MemorySegment cPath, Path file, long offset, long length, boolean keepSize)
            throws IOException {
        if (!NativeAccess.canReserveBlocks()) {
            return false;
        }
        int errno = fallocate(cPath, file, keepSize ? FALLOC_FL_KEEP_SIZE : 0, offset, length);
        if (errno == 0) {
            return true;
        }
        if (errno == EOPNOTSUPP) {
            return false;
        }
        if (errno == ENOSPC) {
            throw new IOException("No space left on device: cannot reserve " + length + " bytes at offset " + offset
                    + " of " + file);
        }
        throw new IOException("fallocate failed with errno " + errno + " for " + length + " bytes at offset " + offset
                + " of " + file);
    }

    /**
     * Gives the blocks of each range {@code [from, to)} of a file back to the file system with
     * {@code fallocate(FALLOC_FL_PUNCH_HOLE)}, keeping its length: the ranges then read as zeros. Only for ranges that
     * hold zeros already and that nobody writes again (docs/file-format.md, "Unused index space"), in the file that
     * was read to find them: the one descriptor it punches through must be that file (device and inode), or nothing
     * is done.
     *
     * @return the bytes punched: 0 where the file is not that one any more, the file system cannot punch holes
     *         (EOPNOTSUPP) or this is not available
     * @throws IOException naming the file and the range when the call fails otherwise
     */
    public static long punchHoles(Path file, long device, long inode, List<long[]> ranges) throws IOException {
        if (!NativeAccess.canReserveBlocks() || Calls.FSTAT == null || ranges.isEmpty()) {
            return 0;
        }
        long punched = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stat = arena.allocate(STAT_BUFFER_SIZE, Long.BYTES);
            int fd = (int) Calls.OPEN.invokeExact(arena.allocateFrom(file.toString()), O_RDWR | O_CLOEXEC);
            if (fd < 0) {
                throw new IOException("cannot open " + file + " to give back blocks");
            }
            try {
                if ((int) Calls.FSTAT.invokeExact(fd, stat) != 0
                        || stat.get(ValueLayout.JAVA_LONG, ST_DEV_OFFSET) != device
                        || stat.get(ValueLayout.JAVA_LONG, ST_INO_OFFSET) != inode) {
                    return 0;
                }
                MemorySegment callState = NativeAccess.callState();
                for (long[] range : ranges) {
                    long length = range[1] - range[0];
                    int result = (int) Calls.FALLOCATE.invokeExact(callState, fd,
                            FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, range[0], length);
                    int errno = result == 0 ? 0 : (int) Calls.ERRNO.get(callState, 0L);
                    if (errno == EOPNOTSUPP) {
                        return punched;
                    }
                    if (errno != 0) {
                        throw new IOException("fallocate(FALLOC_FL_PUNCH_HOLE) failed with errno " + errno + " for "
                                + length + " bytes at offset " + range[0] + " of " + file);
                    }
                    punched += length;
                }
            } finally {
                int ignored = (int) Calls.CLOSE.invokeExact(fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("fallocate(FALLOC_FL_PUNCH_HOLE) failed for " + file, e);
        }
        return punched;
    }

    /** Calls {@code fallocate(2)} on a descriptor of its own; answers 0 or the call's errno. */
    private static int fallocate(MemorySegment cPath, Path file, int mode, long offset, long length)
            throws IOException {
        try {
            int fd = (int) Calls.OPEN.invokeExact(cPath, O_RDWR | O_CLOEXEC);
            if (fd < 0) {
                throw new IOException("cannot open " + file + " to change its blocks");
            }
            MemorySegment callState = NativeAccess.callState();
            try {
                int result = (int) Calls.FALLOCATE.invokeExact(callState, fd, mode, offset, length);
                return result == 0 ? 0 : (int) Calls.ERRNO.get(callState, 0L);
            } finally {
                int ignored = (int) Calls.CLOSE.invokeExact(fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("fallocate failed for " + file, e);
        }
    }
}
