package io.cq.benchmarks.latency;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A probe outside cq for what a first write into a fresh stretch of a mapped file costs the threads around it
 * (docs/performance.md, "2026-11-27, afternoon"): one thread writes 48-byte records into a fresh sparse 2 GiB file at
 * a fixed rate and times each write; a second spins reading the clock and counts its own gaps, as a spinning tailer
 * would see them. With {@code ahead}, a third faults the file in a megabyte at a time, up to 8 MiB ahead of the
 * writer, with {@code madvise(MADV_POPULATE_WRITE)} (as cq's background thread does); with {@code ahead-random}, each
 * slice advised {@code MADV_RANDOM} first and {@code MADV_NORMAL} after (as cq does now).
 *
 * <p>Arguments: {@code seconds directory rate plain|ahead|ahead-random}, or {@code 0 directory 0
 * fault-in|fault-in-random} to time faulting in 1 GiB alone, with and without read-ahead. Needs
 * {@code --enable-native-access}.
 */
public final class ReadAheadProbe {
    private static final long FILE_SIZE = 2L << 30;
    private static final long SLICE = 1L << 20;
    private static final long RECORD = 48;
    private static final int MADV_NORMAL = 0;
    private static final int MADV_RANDOM = 1;
    private static final int MADV_POPULATE_WRITE = 23;
    private static final long STALL_NANOS = 5_000_000;

    private ReadAheadProbe() {
    }

    public static void main(String[] args) throws Throwable {
        int seconds = Integer.parseInt(args[0]);
        Path file = Files.createTempFile(Path.of(args[1]), "read-ahead-probe", ".dat");
        int rate = Integer.parseInt(args[2]);
        String mode = args[3];
        Linker linker = Linker.nativeLinker();
        MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
        if (mode.startsWith("fault-in")) {
            faultInAlone(madvise, file, mode.equals("fault-in-random"));
            return;
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE); Arena arena = Arena.ofShared()) {
            MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_SIZE, arena);
            AtomicLong written = new AtomicLong();
            Thread faulting = mode.startsWith("ahead")
                    ? Thread.ofPlatform().daemon().start(() -> faultInAhead(madvise, mapping, written, end,
                            mode.equals("ahead-random")))
                    : null;
            long[] writer = new long[3];
            Thread writing = Thread.ofPlatform().start(() -> write(mapping, rate, end, written, writer));
            long[] spinner = spin(end);
            writing.join();
            if (faulting != null) {
                faulting.join();
            }
            System.out.printf(Locale.ROOT, "%s: writer max %.2f ms, writes over 5 ms %d; spinner max gap %.2f ms, "
                    + "gaps over 5 ms %d; %d MiB written%n", mode, writer[0] / 1e6, writer[1], spinner[0] / 1e6,
                    spinner[1], writer[2] >> 20);
        }
    }

    /** Faults in 1 GiB of a fresh sparse file alone, a slice at a time, and prints the rate. */
    private static void faultInAlone(MethodHandle madvise, Path file, boolean random) throws Throwable {
        long size = 1L << 30;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE); Arena arena = Arena.ofShared()) {
            MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            long start = System.nanoTime();
            for (long done = 0; done < size; done += SLICE) {
                faultIn(madvise, mapping.asSlice(done, SLICE), random);
            }
            System.out.printf(Locale.ROOT, "fault-in%s: %.2f GB/s%n", random ? "-random" : "",
                    size / ((System.nanoTime() - start) / 1e9) / 1e9);
        }
    }

    private static void write(MemorySegment mapping, int rate, long end, AtomicLong written, long[] result) {
        long period = 1_000_000_000L / rate;
        long next = System.nanoTime();
        long position = 0;
        while (System.nanoTime() < end && position + RECORD <= FILE_SIZE) {
            long now;
            while ((now = System.nanoTime()) < next) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            for (long offset = 8; offset < RECORD; offset += 8) {
                mapping.set(ValueLayout.JAVA_LONG_UNALIGNED, position + offset, now);
            }
            mapping.set(ValueLayout.JAVA_INT, position, (int) RECORD - 4);
            long took = System.nanoTime() - start;
            result[0] = Math.max(result[0], took);
            result[1] += took > STALL_NANOS ? 1 : 0;
            position += RECORD;
            next += period;
            written.lazySet(position);
        }
        result[2] = position;
    }

    private static long[] spin(long end) {
        long last = System.nanoTime();
        long[] result = new long[2];
        while (last < end) {
            long now = System.nanoTime();
            result[0] = Math.max(result[0], now - last);
            result[1] += now - last > STALL_NANOS ? 1 : 0;
            last = now;
        }
        return result;
    }

    private static void faultInAhead(MethodHandle madvise, MemorySegment mapping, AtomicLong written, long end,
                                     boolean random) {
        long done = 0;
        try {
            while (System.nanoTime() < end && done + SLICE <= FILE_SIZE) {
                if (done < written.get() + 8 * SLICE) {
                    faultIn(madvise, mapping.asSlice(done, SLICE), random);
                    done += SLICE;
                } else {
                    // Eight slices ahead is as far as cq's background goes; waiting for the writer to use them must
                    // not spin, or this thread takes the second core the probe measures the first one against.
                    Thread.sleep(1);
                }
            }
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** One slice, as cq's background thread faults it in: with {@code random}, without read-ahead. */
    private static void faultIn(MethodHandle madvise, MemorySegment slice, boolean random) throws Throwable {
        if (random) {
            advise(madvise, slice, MADV_RANDOM);
        }
        if (advise(madvise, slice, MADV_POPULATE_WRITE) != 0) {
            throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed");
        }
        if (random) {
            advise(madvise, slice, MADV_NORMAL);
        }
    }

    private static int advise(MethodHandle madvise, MemorySegment slice, int advice) throws Throwable {
        return (int) madvise.invokeExact(slice, slice.byteSize(), advice);
    }
}
