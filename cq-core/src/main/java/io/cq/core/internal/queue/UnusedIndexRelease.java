package io.cq.core.internal.queue;

import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.NativeIo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Gives back the unused index space of the cycle files an appender finished (docs/file-format.md, "Unused index
 * space"), on the background thread, so that nothing waits for the file system under the write lock: with native
 * access by punching holes in place; without it, for a small cycle, by copying it without those ranges and putting
 * the copy in its place under the queue's write lock.
 */
final class UnusedIndexRelease {
    private UnusedIndexRelease() {
    }

    /**
     * Called by the appender that finished the files, once the cycle after them is published: not before, since a
     * cycle left newest by a failed roll would be reopened by a repair and written again. Only where the file system
     * reads a hole without allocating ({@link UnusedIndexSpace#appliesTo}).
     */
    static void submit(QueueContext queue, List<Path> finished) {
        if (queue.files().writable() && UnusedIndexSpace.appliesTo(queue.files().filesystem())) {
            for (Path file : finished) {
                BackgroundWork.submit(() -> releaseOrWarn(queue, file));
            }
        }
    }

    /** A failure only costs disk space, and is logged. */
    private static void releaseOrWarn(QueueContext queue, Path file) {
        try {
            release(queue, file);
        } catch (IOException | RuntimeException e) {
            Log.warning(UnusedIndexSpace.class, "could not give back the unused index space of " + file
                    + "; it keeps it", e);
        }
    }

    /** @return the bytes given back; 0 when nothing was */
    static long release(QueueContext queue, Path file) throws IOException {
        if (NativeIo.canReserveBlocks()) {
            return UnusedIndexSpace.release(file);
        }
        UnusedIndexSpace.SparseCopy copy = UnusedIndexSpace.sparseCopy(file, queue.files().permissions());
        if (copy == null) {
            return 0;
        }
        try (WriteLock lock = queue.newWriteLock()) {
            lock.acquire();
            try {
                // Under the lock retention deletes files with: a file it deleted meanwhile is not made again.
                return UnusedIndexSpace.replace(copy) ? copy.givenBack() : 0;
            } finally {
                lock.release();
            }
        } finally {
            UnusedIndexSpace.discard(copy);
        }
    }
}
