package io.cq.benchmarks;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/** Writing back the machine's dirty pages, for benchmarks that load storage or must start from a quiet one. */
public final class Writeback {
    /** libc's {@code sync()}: writes back every dirty page of every file system. */
    private static final MethodHandle SYNC = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("sync").orElseThrow(), FunctionDescriptor.ofVoid());

    private Writeback() {
    }

    /** Returns once every dirty page of every file system is written back (and ext4's journal committed). */
    public static void syncAll() {
        try {
            SYNC.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException("sync() failed", e);
        }
    }
}
