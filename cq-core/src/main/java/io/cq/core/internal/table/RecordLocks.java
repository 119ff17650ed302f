package io.cq.core.internal.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * OS record locks on single bytes of the table store far beyond its end (docs/file-format.md, "Locks and liveness"):
 * what must end when a process dies (a process slot, a named tailer's slot, the async drain) is such a lock, which
 * the kernel drops with its process. One per table store per JVM, over its one channel: POSIX drops every record lock
 * of a process on a file when any descriptor of that file closes. Thread-safe.
 */
public final class RecordLocks {
    private final Path path;
    private final FileChannel channel;
    private final boolean writable;
    /** Locks this JVM holds, by region; they all go when the channel closes. */
    private final Map<Long, FileLock> held = new HashMap<>();

    RecordLocks(Path path, FileChannel channel, boolean writable) {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
    }

    /**
     * Runs an action while holding the lock of {@code region} (shared on a read-only channel, which cannot hold an
     * exclusive lock), so claims and probes in different processes never interleave.
     */
    public <T> T underLock(long region, String what, Supplier<T> action) {
        try (FileLock ignored = channel.lock(region, 1, !writable)) {
            return action.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the " + what + " of " + path, e);
        }
    }

    /**
     * Takes the lock of {@code region} for this JVM until {@link #unlock(long)}; false when another process (or
     * another owner in this one) holds it.
     */
    public synchronized boolean tryHold(long region) {
        if (held.containsKey(region)) {
            return false;
        }
        FileLock lock = tryLock(region);
        if (lock == null) {
            return false;
        }
        held.put(region, lock);
        return true;
    }

    /** An exclusive lock of {@code region} kept by the caller (a process slot's), or null where it is taken. */
    FileLock tryLock(long region) {
        try {
            return channel.tryLock(region, 1, false);
        } catch (OverlappingFileLockException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock byte " + region + " of " + path, e);
        }
    }

    /** Lets go of a lock taken with {@link #tryHold(long)}; false when this JVM did not hold it. */
    public synchronized boolean unlock(long region) {
        FileLock lock = held.remove(region);
        if (lock == null) {
            return false;
        }
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unlock byte " + region + " of " + path, e);
        }
        return true;
    }

    /** Whether this JVM holds the lock of {@code region} through {@link #tryHold(long)}. */
    public synchronized boolean isHeldHere(long region) {
        return held.containsKey(region);
    }

    /**
     * Whether some process holds the lock on a byte: this JVM through {@link #tryHold(long)}, or another one, found
     * by a probe that lets go at once. A shared probe works on a read-only channel too; either kind fails while a
     * live holder has the exclusive lock.
     */
    public boolean isHeld(long region, String what) {
        synchronized (this) {
            if (held.containsKey(region)) {
                return true;
            }
        }
        try (FileLock probe = channel.tryLock(region, 1, !writable)) {
            return probe == null;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe the lock of " + what + " of " + path, e);
        }
    }

    /** Forgets every lock, as the channel's close is about to drop them. */
    synchronized void forgetAll() {
        held.clear();
    }
}
