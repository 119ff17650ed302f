package io.cq.benchmarks.jmh;

import io.cq.benchmarks.Directories;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The ceiling for one appending thread on this machine: a loop that writes length-prefixed records into fresh
 * mapped pages of a file, 64 MiB at a time, with no index, no lock and no header protocol. With {@code ahead} off,
 * the writing thread faults every page in itself: any queue that does so is bounded by this figure. With it on, a
 * second thread faults in the next 64 MiB while the writer fills the current one, as cq's background thread does: the
 * ceiling of a writer that gets its pages from another core, bounded, on tmpfs, by how fast the kernel hands out
 * zeroed pages (docs/performance.md, "Ceilings").
 */
@State(Scope.Thread)
public class PlainMappedWriteBenchmark {
    private static final long CHUNK = 64L << 20;

    @Param({"40", "96", "1024"})
    public int size;

    @Param({"false", "true"})
    public boolean ahead;

    private Path directory;
    private FileChannel channel;
    private Arena arena;
    private MemorySegment chunk;
    private long chunkStart;
    private long offset;
    private MemorySegment payload;
    private long counter;
    private PagesAhead pagesAhead;

    @Setup(Level.Iteration)
    public void openFile() throws IOException {
        directory = BenchmarkDirectories.create("plain");
        channel = FileChannel.open(directory.resolve("data"), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        arena = Arena.ofShared();
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        payload = Arena.ofAuto().allocate(size);
        MemorySegment.copy(bytes, 0, payload, ValueLayout.JAVA_BYTE, 0, size);
        chunkStart = -CHUNK;
        offset = CHUNK;
        pagesAhead = ahead ? PagesAhead.start(channel, directory.resolve("data"), CHUNK) : null;
    }

    @TearDown(Level.Iteration)
    public void deleteFile() throws IOException {
        if (pagesAhead != null) {
            pagesAhead.stop();
        }
        arena.close();
        channel.close();
        Directories.delete(directory);
    }

    @Benchmark
    public long write() {
        int record = (Integer.BYTES + size + 3) & -4;
        if (offset + record > CHUNK) {
            nextChunk();
        }
        MemorySegment.copy(payload, 0, chunk, offset + Integer.BYTES, size);
        chunk.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + Integer.BYTES, counter++);
        chunk.set(ValueLayout.JAVA_INT_UNALIGNED, offset, size);
        offset += record;
        return offset;
    }

    private void nextChunk() {
        try {
            chunkStart += CHUNK;
            chunk = channel.map(FileChannel.MapMode.READ_WRITE, chunkStart, CHUNK, arena);
            offset = 0;
            if (pagesAhead != null) {
                pagesAhead.writerAt(chunkStart);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
