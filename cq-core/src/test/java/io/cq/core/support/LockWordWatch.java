package io.cq.core.support;

import io.cq.core.internal.layout.LockWordDescriptor;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads a queue's write-lock word from outside the engine (docs/file-format.md, "The write-lock word"), to time how
 * long a writer that died holding the lock keeps it: from the kill until another writer took it over.
 */
public final class LockWordWatch implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment word;

    public LockWordWatch(Path queueDirectory) throws IOException {
        try (FileChannel channel = FileChannel.open(queueDirectory.resolve("metadata.cq4t"),
                StandardOpenOption.READ)) {
            word = channel.map(FileChannel.MapMode.READ_ONLY, 0, 4096, arena);
        }
    }

    /** The process slot whose writer holds the lock now, or -1 when it is free. */
    public int holderSlot() {
        long token = (long) ValueLayout.JAVA_LONG.varHandle().getVolatile(word,
                LockWordDescriptor.WRITE_LOCK_OFFSET);
        return token == LockWordDescriptor.FREE ? -1 : LockWordDescriptor.processSlot(token);
    }

    /**
     * Waits until the lock is no longer held by {@code slot}, polling every 50 µs, and answers how long that took,
     * in nanoseconds; fails after {@code timeoutSeconds}.
     */
    public long nanosUntilReleasedBy(int slot, long timeoutSeconds) {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (holderSlot() == slot) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the write lock was still held by dead process slot " + slot + " after "
                        + timeoutSeconds + " s");
            }
            LockSupport.parkNanos(50_000);
        }
        return System.nanoTime() - start;
    }

    @Override
    public void close() {
        arena.close();
    }
}
