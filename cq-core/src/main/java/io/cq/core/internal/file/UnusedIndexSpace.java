package io.cq.core.internal.file;

import io.cq.core.QueueFilesystem;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.os.FileBlocks;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.system.ProcessIdentity;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
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
 * page of the file system's memory, and on a full tmpfs the reader would get SIGBUS. With native access the holes are
 * punched in place ({@code fallocate(FALLOC_FL_PUNCH_HOLE)}, {@link #release}); without it, a small finished cycle
 * that is mostly unused index is copied without those ranges ({@link #sparseCopy}) and the copy put in its place under
 * the queue's write lock ({@link #replace}).
 */
public final class UnusedIndexSpace {
    /** File systems on which a hole reads as zeros through a mapping without allocating anything. */
    private static final Set<String> HOLES_READ_WITHOUT_ALLOCATING = Set.of("ext2", "ext3", "ext4", "xfs");
    /** The smallest page size holes are punched in; the system's own is used, a file system block is no larger. */
    private static final long MIN_PAGE = 4096;
    /** Slots read at a time while looking for the last one written. */
    private static final int SLOTS_PER_READ = 8192;
    /**
     * A cycle is copied only where its unused index ranges are at least this fraction of it: the copy then costs at
     * most four times what it gives back, and a cycle whose records outweigh its index keeps it.
     */
    private static final int COPY_AT_MOST_TIMES_GIVEN_BACK = 4;
    /** Bytes read at a time while comparing a copy with its file. */
    private static final int COMPARED_AT_A_TIME = 64 * 1024;

    /** How a copy's name ends: {@code <cycle file>.<pid>.<nanos>.sparse.tmp}, which no listing takes for a cycle. */
    static final String COPY_SUFFIX = ".sparse.tmp";
    /** The attributes that must not have changed between copying a file and replacing it; the owner is one. */
    private static final String IDENTITY = "unix:dev,ino,ctime,size,uid";

    /**
     * A finished cycle's copy that holds its unused index ranges as holes, made by {@link #sparseCopy}: the file it
     * copies, by path and by what identifies it as it was copied (device, inode, change time, size and owner), and how
     * many bytes it leaves out.
     */
    public record SparseCopy(Path file, Path copy, Map<String, Object> copied, long givenBack) {
    }

    private UnusedIndexSpace() {
    }

    /** Whether finished cycles of a queue on this file system get their unused index space given back. */
    public static boolean appliesTo(QueueFilesystem filesystem) {
        return HOLES_READ_WITHOUT_ALLOCATING.contains(filesystem.type());
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
        long page = NativeAccess.pageSize();
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
            return FileBlocks.punchHoles(file, (Long) identity.get("dev"), (Long) identity.get("ino"), ranges);
        } catch (IOException e) {
            if (Files.notExists(file)) {
                return 0; // deleted by retention meanwhile: nothing left to give back
            }
            throw e;
        }
    }

    /**
     * Without native access, the other way to give a finished cycle's unused index space back: copies the file to a
     * new one beside it ({@link #COPY_SUFFIX}), writing everything but its unused index ranges, which the copy then
     * holds as holes. Only for a file whose unused ranges are at least a quarter of it (a small cycle, for which two
     * index blocks of zeros are most of the file), and only for a file this process's user owns: the copy gets the
     * file's permissions, group and modification time. The copy is compared byte for byte with the file and forced to
     * disk before it is returned. Needs no lock: nobody writes to a finished cycle again. The copy replaces nothing
     * until {@link #replace}; {@link #discard} removes it.
     *
     * @return the copy, or null when nothing would be gained, the file is gone, is not a finished cycle file, belongs
     * to another user, or changed while it was copied
     */
    public static SparseCopy sparseCopy(Path file) throws IOException {
        Map<String, Object> copied;
        PosixFileAttributes owner;
        try {
            copied = Files.readAttributes(file, IDENTITY);
            owner = Files.readAttributes(file, PosixFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (UnsupportedOperationException e) {
            return null; // no "unix" attribute view: the file's identity cannot be checked before it is replaced
        }
        Path copy = file.resolveSibling(file.getFileName() + "." + ProcessIdentity.pid() + "." + System.nanoTime()
                + COPY_SUFFIX);
        boolean made = false;
        try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = source.size();
            List<long[]> ranges = unusedRanges(source, MIN_PAGE);
            long unused = 0;
            for (long[] range : ranges) {
                unused += range[1] - range[0];
            }
            if (unused == 0 || size > COPY_AT_MOST_TIMES_GIVEN_BACK * unused) {
                return null;
            }
            try (FileChannel target = FileChannel.open(copy, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(owner.permissions()))) {
                if (!copied.get("uid").equals(Files.getAttribute(copy, "unix:uid"))) {
                    return null; // another user's file: the copy would change its owner
                }
                long from = 0;
                for (long[] range : ranges) {
                    copyRange(source, target, from, range[0]);
                    from = range[1];
                }
                copyRange(source, target, from, size);
                if (target.size() != size || source.size() != size || !sameBytes(source, target, size)) {
                    return null;
                }
                target.force(true);
            }
            PosixFileAttributeView view = Files.getFileAttributeView(copy, PosixFileAttributeView.class);
            view.setPermissions(owner.permissions()); // exactly, whatever the umask took away
            if (!view.readAttributes().group().equals(owner.group())) {
                try {
                    view.setGroup(owner.group());
                } catch (IOException notAMember) {
                    return null; // the copy could not be read as the file is: the file keeps its index
                }
            }
            view.setTimes(owner.lastModifiedTime(), null, null);
            made = true;
            return new SparseCopy(file, copy, copied, unused);
        } catch (NoSuchFileException e) {
            return null; // deleted by retention meanwhile
        } finally {
            if (!made) {
                deleteQuietly(copy);
            }
        }
    }

    /**
     * Puts a copy made by {@link #sparseCopy} in its file's place, if the file is still as it was copied (same
     * device, inode, change time, size and owner): under the queue's write lock, which retention holds while it deletes
     * files, so a file deleted meanwhile is not made again. Readers that have the file open keep reading the old one,
     * which holds the same bytes; its blocks are freed when the last of them lets it go.
     *
     * @return whether the copy replaced the file
     */
    public static boolean replace(SparseCopy copy) throws IOException {
        Map<String, Object> now;
        try {
            now = Files.readAttributes(copy.file(), IDENTITY);
        } catch (NoSuchFileException e) {
            return false;
        }
        if (!now.equals(copy.copied())) {
            return false;
        }
        Files.move(copy.copy(), copy.file(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    /** Removes a copy that did not replace its file. */
    public static void discard(SparseCopy copy) {
        deleteQuietly(copy.copy());
    }

    /**
     * Deletes the copies in {@code directory} that a process left when it died while making one: those whose inode
     * last changed more than {@code age} ago (making one takes milliseconds). By age, not by process id: processes in
     * other containers on the same queue see other process ids.
     *
     * @return how many were deleted
     */
    public static int deleteLeftCopies(Path directory, Duration age) throws IOException {
        long before = System.currentTimeMillis() - age.toMillis();
        int deleted = 0;
        try (DirectoryStream<Path> copies = Files.newDirectoryStream(directory, "*" + COPY_SUFFIX)) {
            for (Path copy : copies) {
                try {
                    FileTime changed = (FileTime) Files.getAttribute(copy, "unix:ctime");
                    if (changed.toMillis() < before && Files.deleteIfExists(copy)) {
                        deleted++;
                    }
                } catch (NoSuchFileException e) {
                    // deleted by its maker or another process meanwhile
                }
            }
        }
        return deleted;
    }

    private static void deleteQuietly(Path copy) {
        try {
            Files.deleteIfExists(copy);
        } catch (IOException e) {
            // left for deleteLeftCopies, and named by a queue's verify
        }
    }

    /** Copies {@code [from, to)} of {@code source} to the same positions of {@code target}. */
    private static void copyRange(FileChannel source, FileChannel target, long from, long to) throws IOException {
        long position = from;
        while (position < to) {
            long copied = target.transferFrom(source.position(position), position, to - position);
            if (copied <= 0) {
                throw new EOFException("cannot copy " + (to - position) + " bytes from position " + position);
            }
            position += copied;
        }
    }

    private static boolean sameBytes(FileChannel a, FileChannel b, long size) throws IOException {
        for (long position = 0; position < size; position += COMPARED_AT_A_TIME) {
            int length = (int) Math.min(COMPARED_AT_A_TIME, size - position);
            ByteBuffer first = read(a, position, length);
            ByteBuffer second = read(b, position, length);
            if (first == null || !first.equals(second)) {
                return false;
            }
        }
        return true;
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
