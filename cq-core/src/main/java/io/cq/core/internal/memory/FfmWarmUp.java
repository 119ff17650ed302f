package io.cq.core.internal.memory;

import io.cq.core.internal.system.OnceInBackground;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Sets up the JDK's FFM machinery (memory sessions, value layouts and their var handles, array copies) on threads of
 * its own, once per JVM, when it is about to be needed. The first use of each costs the JDK milliseconds of class
 * loading and code generation; on a second core that overlaps the file-system work of opening the queue (checking
 * the directory and its file system, preparing the table store) instead of following it (docs/performance.md,
 * "Start-up"). It changes when that work happens, never what happens: the opening thread uses the same classes and
 * waits for any it reaches first.
 *
 * <p>One class for the three parts, not one each: every class on the path to a first excerpt costs about 0.15 ms to
 * load from a JAR there.
 */
public final class FfmWarmUp implements Runnable {
    private static final int SESSION = 0;
    private static final int VAR_HANDLES = 1;
    private static final int ARRAY_COPIES = 2;
    private static final OnceInBackground WORK = new OnceInBackground("cq-ffm-warm-up", new FfmWarmUp(SESSION));
    private static final OnceInBackground HANDLES = new OnceInBackground("cq-ffm-var-handles",
            new FfmWarmUp(VAR_HANDLES));
    private static final OnceInBackground COPIES = new OnceInBackground("cq-ffm-array-copies",
            new FfmWarmUp(ARRAY_COPIES));

    /**
     * Whether this JVM has linked the JDK's copies between arrays and segments: their first use links a type switch
     * inside the JDK, about 3 ms of code generation on a new queue's path to its first excerpt. Until that is done
     * here, on a thread of its own (started by the first copy taking the other way), arrays are copied through a
     * byte buffer view of the slice, whose first use costs a tenth of a heap segment's (0.2 against 1.8 ms) and which
     * allocates two small objects a copy. A plain field: a thread that sees it late only takes the other, equivalent
     * copy. The copies are here, not in {@link SegmentCursor}, so that the flag has one owner.
     */
    private static boolean arrayCopiesLinked;

    private final int part;

    private FfmWarmUp(int part) {
        this.part = part;
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
     * Starts linking the JDK's copies between arrays and segments, once per JVM: called by the first copy of an
     * array, which takes another way until then ({@link #copy}). Not with the rest: on a machine with two
     * cores, those 4-5 ms of code generation would take a core from the path to a new queue's first excerpt, which
     * does not need them. The first copy may be an appender's, under the write lock: one thread start, once per JVM,
     * as the first append's class loading is. Where no thread can start, the JDK's copies are taken unlinked.
     */
    static void linkArrayCopiesInBackground() {
        try {
            COPIES.start();
        } catch (RuntimeException | Error e) {
            // No thread for it: the application's threads take the JDK's copies and link them on first use.
            arrayCopiesLinked = true;
        }
    }

    /** Copies {@code length} bytes of an array into {@code segment} at {@code at}, as the cursor's writes do. */
    static void copy(byte[] from, int offset, MemorySegment segment, long at, int length) {
        if (arrayCopiesLinked) {
            MemorySegment.copy(from, offset, segment, ValueLayout.JAVA_BYTE, at, length);
        } else {
            segment.asSlice(at, length).asByteBuffer().put(from, offset, length);
            linkArrayCopiesInBackground();
        }
    }

    /** Copies {@code length} bytes of {@code segment} at {@code at} into an array, as the cursor's reads do. */
    static void copy(MemorySegment segment, long at, byte[] into, int offset, int length) {
        if (arrayCopiesLinked) {
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, at, into, offset, length);
        } else {
            segment.asSlice(at, length).asByteBuffer().get(into, offset, length);
            linkArrayCopiesInBackground();
        }
    }

    /** Set once the JDK's array copies are linked in this JVM (and by tests, both ways). */
    static void arrayCopiesLinked(boolean linked) {
        arrayCopiesLinked = linked;
    }

    static boolean arrayCopiesLinked() {
        return arrayCopiesLinked;
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

    @Override
    public void run() {
        try {
            switch (part) {
                case SESSION -> session();
                case VAR_HANDLES -> Memory.INT.byteSize(); // initialises Memory: its var handles
                default -> arrayCopies();
            }
        } catch (RuntimeException | Error e) {
            if (part == ARRAY_COPIES) {
                // Whatever failed here fails the same way for the application's threads, which then say what it is.
                arrayCopiesLinked = true;
            }
            // Nothing depends on this: the queue's own thread sets up whatever is missing, and a class that fails to
            // initialise fails the same way on every thread, so the opening thread meets it.
        }
    }

    private static void session() {
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
        }
    }

    private static void arrayCopies() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment segment = arena.allocate(16);
            byte[] array = new byte[8];
            MemorySegment.copy(array, 0, segment, ValueLayout.JAVA_BYTE, 0, array.length);
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 8, array, 0, array.length);
            arrayCopiesLinked = true;
        }
    }
}
