package io.cq.core.internal.os;

import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.OnceInBackground;

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
import java.util.Optional;

/**
 * The few POSIX calls the JDK does not offer, linked once per JVM as FFM downcalls, and whether they are available:
 * {@link FileBlocks} ({@code fallocate}, {@code stat}), {@link MemoryAdvice} ({@code madvise}) and
 * {@link ThreadPriority} ({@code setpriority}) make them.
 *
 * <p>Used only when the JVM allows native access for cq ({@code --enable-native-access=ALL-UNNAMED}, the cq module
 * named, or an executable jar's {@code Enable-Native-Access} manifest entry). Without it, {@code MappedFile}
 * reserves blocks by writing zeros under the write lock and faults nothing in ahead: as safe, a little slower.
 */
public final class NativeAccess {
    private static volatile boolean READY;
    private static final OnceInBackground LINKING = new OnceInBackground("cq-native-link", new Linking());

    /**
     * Where a downcall leaves errno: one per thread (in practice the background thread), made on its first call
     * ({@link #callState()}), so calls allocate nothing.
     */
    private static final ThreadLocal<MemorySegment> CALL_STATE = new ThreadLocal<>();

    /** The downcalls; linking them costs ~100 ms of class loading and code generation, so it is done once, ahead. */
    static final class Calls {
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
            if (!NativeAccess.class.getModule().isNativeAccessEnabled()) {
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
                Log.debug(NativeAccess.class, "cq reserves cycle-file blocks by writing zeros, and faults no page in "
                        + "ahead: {0}; native access makes that faster, never safer", UNAVAILABLE_BECAUSE);
            }
        }
    }

    private NativeAccess() {
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
    static MemorySegment callState() {
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

}
