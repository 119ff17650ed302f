package io.cq.benchmarks.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that supplies the pages of the chunk after the one a writer is in, for {@link PlainMappedWriteBenchmark},
 * the fastest way Linux has: {@code fallocate} (on tmpfs it allocates and zeroes the pages) then
 * {@code madvise(MADV_POPULATE_WRITE)} a megabyte at a time, as cq's background thread does. Neither changes a byte,
 * so the writer's bytes are never touched even if it arrives before this thread is done. Linux only; needs native
 * access, as the benchmarks' JVMs have.
 */
final class PagesAhead {

    private static final int O_RDWR = 2;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int MADV_POPULATE_WRITE = 23;
    private static final long SLICE = 1 << 20;
    private static final MethodHandle OPEN;
    private static final MethodHandle FALLOCATE;
    private static final MethodHandle MADVISE;
    private static final MethodHandle CLOSE;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        OPEN = linker.downcallHandle(libc.find("open").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
        FALLOCATE = linker.downcallHandle(libc.find("fallocate").orElseThrow(), FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG));
        MADVISE = linker.downcallHandle(libc.find("madvise").orElseThrow(), FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT));
    }

    private final FileChannel channel;
    private final int fd;
    private final long chunkSize;
    private final Arena arena = Arena.ofShared();
    private final Thread thread;
    private volatile long writerChunk = -1;
    private volatile boolean stopped;

    private PagesAhead(FileChannel channel, Path file, long chunkSize) {
        this.channel = channel;
        this.fd = open(file);
        this.chunkSize = chunkSize;
        this.thread = Thread.ofPlatform().daemon().name("pages-ahead").start(this::run);
    }

    static PagesAhead start(FileChannel channel, Path file, long chunkSize) {
        return new PagesAhead(channel, file, chunkSize);
    }

    private static int open(Path file) {
        try (Arena local = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(local.allocateFrom(file.toString()), O_RDWR);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + file);
            }
            return fd;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot open " + file, e);
        }
    }

    /** The writer entered the chunk that starts at {@code chunkStart}. */
    void writerAt(long chunkStart) {
        writerChunk = chunkStart;
        LockSupport.unpark(thread);
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arena.close();
        try {
            int closed = (int) CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private void run() {
        long faulted = 0;
        while (!stopped) {
            long next = writerChunk + chunkSize;
            if (writerChunk < 0 || next < faulted) {
                LockSupport.park();
                continue;
            }
            try {
                MemorySegment chunk = channel.map(FileChannel.MapMode.READ_WRITE, next, chunkSize, arena);
                for (long slice = 0; slice < chunkSize && !stopped; slice += SLICE) {
                    int allocated = (int) FALLOCATE.invokeExact(fd, FALLOC_FL_KEEP_SIZE, next + slice, SLICE);
                    int populated = (int) MADVISE.invokeExact(chunk.asSlice(slice, SLICE), SLICE,
                            MADV_POPULATE_WRITE);
                    if (allocated != 0 || populated != 0) {
                        throw new IllegalStateException("fallocate or madvise failed at " + (next + slice));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            faulted = next + chunkSize;
        }
    }
}
