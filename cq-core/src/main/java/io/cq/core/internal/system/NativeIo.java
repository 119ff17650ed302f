package io.cq.core.internal.system;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The few POSIX calls the JDK does not offer, made through FFM downcalls: {@code fallocate} reserves a
 * file's blocks before they are mapped, so that a full disk is an {@link IOException} when a block is
 * allocated instead of a crash on the first write into the mapping; {@code madvise(MADV_POPULATE_WRITE)}
 * faults a range of a mapping in with one system call instead of one page fault per page.
 *
 * <p>Used only when the JVM allows native access for cq ({@code --enable-native-access=ALL-UNNAMED}, the cq module
 * named, or an executable jar's {@code Enable-Native-Access} manifest entry). Without it, {@code MappedFile}
 * reserves blocks by writing zeros under the write lock and faults nothing in ahead: as safe, a little slower.
 */
public final class NativeIo {
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final int ENOSPC = 28;
    private static final int EOPNOTSUPP = 95;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int FALLOC_FL_PUNCH_HOLE = 2;
    /** Linux 5.14 and later; older kernels answer EINVAL and the caller touches the pages one by one. */
    private static final int MADV_POPULATE_WRITE = 23;
    private static final int MADV_NORMAL = 0;
    private static final int MADV_RANDOM = 1;
    private static final int EINVAL = 22;

    /** What {@link #populateForWrite} did. */
    public enum Populated {
        /** Every page is present and writable. */
        DONE,
        /** The call does not exist here (no native access, not Linux, a kernel before 5.14): touch the pages. */
        UNSUPPORTED,
        /**
         * The kernel could not fault the pages in (no memory or space for them): touching them would crash the
         * JVM with SIGBUS, so leave them to the appender, which meets the condition when it writes.
         */
        FAILED
    }

    private static volatile boolean READY;
    private static final OnceInBackground LINKING = new OnceInBackground("cq-native-link", new Linking());
    private static final long STAT_BUFFER_SIZE = 256;
    private static final long ST_BLOCKS_OFFSET = 64;
    private static final long STAT_BLOCK_SIZE = 512;
    /** st_dev and st_ino lead struct stat on x86-64 and aarch64 alike. */
    private static final long ST_DEV_OFFSET = 0;
    private static final long ST_INO_OFFSET = 8;

    /**
     * Where a downcall leaves errno: one per thread (in practice the background thread), made on its first call
     * ({@link #callState()}), so calls allocate nothing.
     */
    private static final ThreadLocal<MemorySegment> CALL_STATE = new ThreadLocal<>();

    /** The downcalls; linking them costs ~100 ms of class loading and code generation, so it is done once, ahead. */
    private static final class Calls {
        static final MethodHandle OPEN;
        static final MethodHandle CLOSE;
        static final MethodHandle FALLOCATE;
        static final MethodHandle MADVISE;
        /** {@code stat}, for a file's allocated blocks; null where the C library does not export it (glibc < 2.33). */
        static final MethodHandle STAT;
        /** {@code setpriority}, for the nice value of the calling thread (a per-thread attribute on Linux). */
        static final MethodHandle SETPRIORITY;
        /** {@code fstat}, for the identity of an open descriptor's file; null where not exported (glibc < 2.33). */
        static final MethodHandle FSTAT;
        /** The system's page size, in bytes; 0 where it could not be read. */
        static final long PAGE_SIZE;
        static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final String UNAVAILABLE_BECAUSE;

        static {
            MethodHandle open = null;
            MethodHandle close = null;
            MethodHandle fallocate = null;
            MethodHandle madvise = null;
            String reason = null;
            if (!NativeIo.class.getModule().isNativeAccessEnabled()) {
                reason = "native access is not enabled for cq (add --enable-native-access=ALL-UNNAMED to the java "
                        + "command)";
            } else if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
                reason = "fallocate is only used on Linux";
            } else {
                try {
                    Linker linker = Linker.nativeLinker();
                    SymbolLookup libc = linker.defaultLookup();
                    open = linker.downcallHandle(find(libc, "open"),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
                    close = linker.downcallHandle(find(libc, "close"),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                    // fallocate(2) itself, not posix_fallocate: where a file system cannot allocate without writing,
                    // glibc's posix_fallocate writes zeros over what it reads as zero, which is not safe beside a
                    // writer; fallocate answers EOPNOTSUPP instead, and the caller decides.
                    fallocate = linker.downcallHandle(find(libc, "fallocate"),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.captureCallState("errno"));
                    madvise = linker.downcallHandle(find(libc, "madvise"),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT),
                            Linker.Option.captureCallState("errno"));
                } catch (RuntimeException | LinkageError e) {
                    reason = "cannot link fallocate: " + e;
                    open = null;
                }
            }
            OPEN = open;
            CLOSE = close;
            FALLOCATE = fallocate;
            MADVISE = open == null ? null : madvise;
            MethodHandle stat = null;
            if (open != null && ("amd64".equals(System.getProperty("os.arch"))
                    || "aarch64".equals(System.getProperty("os.arch")))) {
                Linker linker = Linker.nativeLinker();
                stat = linker.defaultLookup().find("stat").map(symbol -> linker.downcallHandle(symbol,
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS)))
                        .orElse(null);
            }
            STAT = stat;
            FSTAT = stat == null ? null : Linker.nativeLinker().defaultLookup().find("fstat")
                    .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
            PAGE_SIZE = open == null ? 0 : pageSize(Linker.nativeLinker());
            SETPRIORITY = open == null ? null : Linker.nativeLinker().defaultLookup().find("setpriority")
                    .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)))
                    .orElse(null);
            UNAVAILABLE_BECAUSE = open == null ? reason : null;
            READY = true;
            if (UNAVAILABLE_BECAUSE != null) {
                // Debug only: a plain `java -jar app.jar` is a supported way to run, and safe; it prints nothing.
                Log.debug(NativeIo.class, "cq reserves cycle-file blocks by writing zeros, and faults no page in "
                        + "ahead: {0}; native access makes that faster, never safer", UNAVAILABLE_BECAUSE);
            }
        }
    }

    private NativeIo() {
    }

    private static long pageSize(Linker linker) {
        try {
            MethodHandle getpagesize = linker.downcallHandle(find(linker.defaultLookup(), "getpagesize"),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT));
            return (int) getpagesize.invokeExact();
        } catch (Throwable e) {
            return 0;
        }
    }

    /** The system's page size in bytes, or 0 where this cannot read it (no native access, not Linux). */
    public static long pageSize() {
        return canReserveBlocks() ? Calls.PAGE_SIZE : 0;
    }

    private static MemorySegment find(SymbolLookup lookup, String name) {
        Optional<MemorySegment> symbol = lookup.find(name);
        return symbol.orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name));
    }

    /**
     * Links the downcalls on a thread of their own, once per JVM, so that no appender waits for it: until they are
     * linked, appenders reserve by writing zeros. Called at an appender's first look at its pace, not when a queue
     * opens: on a machine with two cores, linking (tens of milliseconds of code generation, and the JIT compiling
     * that code) would otherwise take a core from the path to a new process's first excerpt. Not on the shared
     * background thread, so that a queue closing soon after never waits for it.
     */
    public static void warmUpInBackground() {
        if (!READY) {
            LINKING.start();
        }
    }

    /**
     * The calling thread's errno capture. Not a {@code ThreadLocal} subclass with an initial value: that would be one
     * more class to load on the path to a first excerpt.
     */
    private static MemorySegment callState() {
        MemorySegment state = CALL_STATE.get();
        if (state == null) {
            state = Arena.ofAuto().allocate(Linker.Option.captureStateLayout());
            CALL_STATE.set(state);
        }
        return state;
    }

    private static final class Linking implements Runnable {
        @Override
        public void run() {
            canReserveBlocks();
        }
    }

    /** Whether the downcalls are linked (or known to be unavailable) already. */
    public static boolean isReady() {
        return READY;
    }

    /**
     * Whether blocks are reserved before mapping; false means files are mapped sparse. Waits for the downcalls to be
     * linked when another thread is linking them: for background threads and tools, not for an appender.
     */
    public static boolean canReserveBlocks() {
        return Calls.UNAVAILABLE_BECAUSE == null;
    }

    /**
     * {@link #canReserveBlocks()} without waiting: false while the downcalls are still being linked. An appender asks
     * this, so that a new process's first append reserves by writing zeros (as safe) instead of waiting tens of
     * milliseconds for the linker's code generation (docs/performance.md, "Start-up").
     */
    public static boolean canReserveBlocksNow() {
        return READY && Calls.UNAVAILABLE_BECAUSE == null;
    }

    /**
     * Gives the calling thread a nice value (Linux: 0 is the default, 19 the lowest priority), so that a background
     * thread yields its core to the application's threads; false where that cannot be done here (no native access,
     * not Linux), which changes speed only.
     */
    public static boolean niceThisThread(int nice) {
        if (!canReserveBlocks() || Calls.SETPRIORITY == null) {
            return false;
        }
        try {
            // PRIO_PROCESS (0) with who = 0: on Linux, the calling thread alone.
            return (int) Calls.SETPRIORITY.invokeExact(0, 0, nice) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Faults in every page of a page-aligned slice of a writable shared mapping, as if each were written, without
     * changing its content, and without the page cache's read-ahead (as the two-argument form explains).
     */
    public static Populated populateForWrite(MemorySegment slice) {
        return populateForWrite(slice, false);
    }

    /**
     * Faults in every page of a page-aligned slice of a writable shared mapping, as if each were written, without
     * changing its content.
     *
     * <p>Without {@code readAhead}, the slice is advised {@code MADV_RANDOM} while it is faulted in, and
     * {@code MADV_NORMAL} again after. A fault on a page the file has not had yet otherwise starts the page cache's
     * read-ahead, which zeroes the whole read-ahead window (8 MiB on a virtio disk) of large folios in one stretch of
     * kernel code that nothing preempts: on two cores, a spinning appender or tailer then loses its core for about
     * 20 ms every 8 MiB. Page by page the same work yields between pages (docs/performance.md, "Faulting in without
     * read-ahead"). Readers keep their read-ahead: the advice is gone once the slice is in. With {@code readAhead},
     * for an appender writing hundreds of megabytes a second, the large folios are kept: page by page, the kernel's
     * work per page (reclaim lists, dirty accounting, writeback) took a sixth off 1 KiB appends.
     */
    public static Populated populateForWrite(MemorySegment slice, boolean readAhead) {
        if (!isReady() || Calls.MADVISE == null) {
            return Populated.UNSUPPORTED;
        }
        try {
            MemorySegment callState = callState();
            long length = slice.byteSize();
            // Advice is a hint: where it is refused, faulting in still works, only with read-ahead.
            boolean random = !readAhead && advise(callState, slice, length, MADV_RANDOM);
            boolean populated = advise(callState, slice, length, MADV_POPULATE_WRITE);
            int errno = populated ? 0 : (int) Calls.ERRNO.get(callState, 0L);
            if (random) {
                advise(callState, slice, length, MADV_NORMAL);
            }
            if (populated) {
                return Populated.DONE;
            }
            return errno == EINVAL ? Populated.UNSUPPORTED : Populated.FAILED;
        } catch (Throwable e) {
            return Populated.FAILED;
        }
    }

    private static boolean advise(MemorySegment callState, MemorySegment slice, long length, int advice)
            throws Throwable {
        return (int) Calls.MADVISE.invokeExact(callState, slice, length, advice) == 0;
    }

    /**
     * The bytes a file's allocated blocks take on disk ({@code st_blocks × 512}, what {@code du} counts), or -1 where
     * that cannot be read here (no native access, or a C library or platform this does not know).
     */
    public static long allocatedBytes(Path file) {
        if (!canReserveBlocks() || Calls.STAT == null) {
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
        if (!canReserveBlocks()) {
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
        if (!canReserveBlocks()) {
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
        if (!canReserveBlocks() || Calls.FSTAT == null || ranges.isEmpty()) {
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
                MemorySegment callState = callState();
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
            MemorySegment callState = callState();
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
