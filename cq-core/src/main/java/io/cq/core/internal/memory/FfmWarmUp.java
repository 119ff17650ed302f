package io.cq.core.internal.memory;

import io.cq.core.internal.system.OnceInBackground;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Sets up the JDK's FFM machinery (memory sessions, value layouts and their var handles) on threads of its own,
 * once per JVM, when a queue is about to be opened. The first use of each costs the JDK tens of milliseconds of class
 * loading and code generation; on a second core that overlaps the file-system work of opening the queue (checking
 * the directory and its file system, preparing the table store) instead of following it (docs/performance.md,
 * "Start-up"). It changes when that work happens, never what happens: the opening thread uses the same classes and
 * waits for any it reaches first.
 */
public final class FfmWarmUp {
    private static final OnceInBackground WORK = new OnceInBackground("cq-ffm-warm-up", new Work());
    private static final OnceInBackground HANDLES = new OnceInBackground("cq-ffm-var-handles", new Handles());

    private FfmWarmUp() {
    }

    /**
     * Starts two threads: one for a memory session and the accesses of the path to a first excerpt, one for cq's
     * var handles alone. The two are about 14 and 8 ms of the JDK's set-up that do not depend on each other; on a
     * thread each, the opening thread waits less for whichever it reaches first (docs/performance.md, "Start-up").
     */
    public static void startInBackground() {
        start(HANDLES);
        start(WORK);
    }

    /**
     * Called from the builder's static initialiser: a thread that cannot start (no memory left for one) must not
     * fail that class for the rest of the JVM. The opening thread then does this work itself.
     */
    private static void start(OnceInBackground work) {
        try {
            work.start();
        } catch (RuntimeException | Error e) {
            // nothing depends on it
        }
    }

    private static final class Handles implements Runnable {
        @Override
        public void run() {
            try {
                Memory.INT.byteSize(); // initialises Memory: its var handles
            } catch (RuntimeException | Error e) {
                // A class that fails to initialise fails the same way on every thread: the opening thread meets it.
            }
        }
    }

    private static final class Work implements Runnable {
        @Override
        public void run() {
            try (Arena arena = Arena.ofShared()) {
                // In the order the opening thread needs them: a memory session (to map the table store), then cq's
                // var handles (its first atomic access; made on the other thread, waited for here), then the rest.
                Memory.INT.byteSize();
                MemorySegment segment = arena.allocate(64, Long.BYTES);
                // Every access kind the path to a first excerpt uses: ordered ints and longs, compare-and-set, and
                // the cursor's unaligned reads and writes.
                Memory.putIntRelease(segment, 0, 1);
                Memory.putLongRelease(segment, 8, Memory.getIntAcquire(segment, 0));
                Memory.casLong(segment, 8, Memory.getLongAcquire(segment, 8), Memory.getLongVolatile(segment, 8));
                Memory.casInt(segment, 0, Memory.getIntVolatile(segment, 0), Memory.getInt(segment, 0));
                Memory.putLong(segment, 16, Memory.getLong(segment, 8));
                SegmentCursor cursor = new SegmentCursor();
                cursor.bindForRead(segment, 24, 32);
                cursor.readLong();
                cursor.readInt();
                cursor.readByte();
                cursor.unbind();
                // Last: the application's threads copy arrays another way until this is done (SegmentCursor).
                byte[] array = new byte[8];
                MemorySegment.copy(array, 0, segment, ValueLayout.JAVA_BYTE, 0, array.length);
                MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 8, array, 0, array.length);
                SegmentCursor.arrayCopiesLinked(true);
            } catch (RuntimeException | Error e) {
                // Nothing depends on this: the queue's own thread sets up whatever is missing.
            }
        }
    }
}
