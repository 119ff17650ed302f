package io.cq.core.internal.queue;

import io.cq.core.DiskSpace;
import io.cq.core.WriteLockTimeoutException;
import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.Log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gives back the unused index space of the cycle files an appender finished (docs/file-format.md, "Unused index
 * space"), on the background thread, so that nothing waits for the file system under the write lock: with native
 * access by punching holes in place; without it, for a small cycle, by copying it without those ranges and putting
 * the copy in its place under the queue's write lock.
 */
final class UnusedIndexRelease {
    /** How long the write lock is waited for, in line, before a copy is given up: the background serves every queue. */
    private static final long LOCK_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** A copy is made only where the free space is this many times the file's size, and not low for the queue. */
    private static final long ROOM_FOR_COPIES = 16;
    /** A copy whose inode has not changed for this long was left by a process that died while making it. */
    private static final Duration LEFT_COPY_AGE = Duration.ofHours(1);
    private static final long BETWEEN_LOOKS_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** When copies left by dead processes were last looked for (System.nanoTime), 0 for never; background only. */
    private static long lastLookedForLeftCopies;

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
            release(queue, file, NativeAccess.canReserveBlocks());
        } catch (IOException | RuntimeException e) {
            Log.warning(UnusedIndexSpace.class, "could not give back the unused index space of " + file
                    + "; it keeps it", e);
        }
    }

    /**
     * @param punch whether holes can be punched in place (native access)
     * @return the bytes given back; 0 when nothing was
     */
    static long release(QueueContext queue, Path file, boolean punch) throws IOException {
        if (punch) {
            return UnusedIndexSpace.release(file);
        }
        deleteLeftCopiesNowAndThen(queue.files().directory());
        // Not through the queue, which may be closing: its close waits for this thread before it lets go of the files.
        DiskSpace space = queue.files().diskSpace().check();
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            return 0; // deleted by retention meanwhile (it runs right after the roll that submitted this)
        }
        if (space.low() || space.usableBytes() < ROOM_FOR_COPIES * size) {
            return 0; // the copy would take some of the last free space, and the old file is kept while mapped
        }
        UnusedIndexSpace.SparseCopy copy = UnusedIndexSpace.sparseCopy(file);
        if (copy == null) {
            return 0;
        }
        try (WriteLock lock = queue.newWriteLock(LOCK_WAIT_NANOS)) {
            try {
                // In line with the appenders of this JVM (docs/file-format.md, "Waiting in line"): a busy appender
                // lets it in within a millisecond or so, where trying the lock now and then could miss it every time.
                lock.acquire();
            } catch (WriteLockTimeoutException e) {
                return 0; // a writer holds it for long: the cycle keeps its index rather than the thread waiting
            }
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

    /**
     * Copies left by dead processes, looked for at most once every ten minutes per JVM: a listing of the directory
     * at every finished cycle would be a waste for the few a crash leaves.
     */
    private static void deleteLeftCopiesNowAndThen(Path directory) throws IOException {
        long now = System.nanoTime();
        if (lastLookedForLeftCopies == 0 || now - lastLookedForLeftCopies > BETWEEN_LOOKS_NANOS) {
            lastLookedForLeftCopies = now;
            UnusedIndexSpace.deleteLeftCopies(directory, LEFT_COPY_AGE);
        }
    }
}
