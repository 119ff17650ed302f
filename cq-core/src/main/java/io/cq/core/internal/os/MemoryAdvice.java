package io.cq.core.internal.os;

import io.cq.core.internal.os.NativeAccess.Calls;

import java.lang.foreign.MemorySegment;

/**
 * {@code madvise(MADV_POPULATE_WRITE)}: faults a range of a mapping in with one system call instead of one page fault
 * per page, where {@link NativeAccess} has linked it.
 */
public final class MemoryAdvice {
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

    private MemoryAdvice() {
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
        if (!NativeAccess.isReady() || Calls.MADVISE == null) {
            return Populated.UNSUPPORTED;
        }
        try {
            MemorySegment callState = NativeAccess.callState();
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
}
