package io.cq.core.internal.memory;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.NativeIo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A file mapped in chunks: chunk {@code i} maps {@code [i * blockSize, (i + 1) * blockSize + overlap)}, so a
 * record that starts in a chunk always lies whole inside it (docs/file-format.md, "Mapping"). Chunks are mapped
 * on first use and all unmapped together when the file is closed; mapping a chunk read-write grows the file.
 *
 * <p>Thread-safe: chunks are published through a volatile copy-on-write array.
 */
public final class MappedFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final boolean writable;
    private final long blockSize;
    private final long mappingSize;
    private final Arena arena = Arena.ofShared();
    private volatile MemorySegment[] chunks = new MemorySegment[0];
    private volatile boolean closed;

    private final DiskSpaceMonitor diskSpace;

    /** Fault-in granularity: 256 pages, a fraction of a millisecond of work. */
    private static final long FAULT_IN_SLICE = 1 << 20;
    private static final long FAULT_IN_PAUSE_NANOS = 200_000;

    public MappedFile(Path path, FileChannel channel, boolean writable, long blockSize, long overlap,
                      DiskSpaceMonitor diskSpace) {
        this.diskSpace = diskSpace;
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        this.blockSize = blockSize;
        this.mappingSize = blockSize + overlap;
    }

    public Path path() {
        return path;
    }

    public long blockSize() {
        return blockSize;
    }

    public boolean writable() {
        return writable;
    }

    public int chunkIndex(long position) {
        return (int) (position / blockSize);
    }

    public long chunkStart(int chunk) {
        return chunk * blockSize;
    }

    /**
     * The mapping of a chunk, or null when the file is read-only and does not reach the chunk's end yet (its
     * writer has not got there).
     */
    public MemorySegment chunk(int index) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null) {
            return current[index];
        }
        return mapChunk(index);
    }

    /**
     * Reserves, maps and faults in a chunk on a background thread, so that the appender that reaches it finds
     * its pages present instead of waiting for the file system and the page-fault handler. Failures are left for
     * that appender to meet and report (it maps the chunk itself when the background has not).
     *
     * @param writePosition where the appenders of this file are writing now; paces the work (see
     *                      {@link #faultIn})
     * @param faultInPages  false to reserve and map the chunk only, leaving its pages to the appender
     */
    public void prepareAhead(int index, LongSupplier writePosition, boolean faultInPages) {
        if (!writable || closed) {
            return;
        }
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null) {
            return;
        }
        BackgroundWork.submit(() -> {
            try {
                if (faultInPages) {
                    faultIn(index, writePosition);
                } else {
                    chunk(index);
                }
            } catch (RuntimeException ignored) {
                // The appender maps the chunk again when it needs it, and reports the failure then; a chunk
                // closed under the preparer (the queue was closed) needs nothing more.
            }
        });
    }

    /** Faults in the pages of a chunk on the background thread (a new file's first chunk). */
    public void touchInBackground(int index, LongSupplier writePosition) {
        if (!writable || closed) {
            return;
        }
        BackgroundWork.submit(() -> {
            try {
                faultIn(index, writePosition);
            } catch (RuntimeException ignored) {
                // the file was closed meanwhile
            }
        });
    }

    /**
     * Faults a chunk in slice by slice. While the appenders are far behind a slice (more than half a block), it
     * pauses between slices: on a machine with few cores, faulting a whole block in one burst takes a CPU from
     * the application's own spinning threads for tens of milliseconds, which shows as their tail latency. Once
     * the appenders come close, it goes at full speed, since they would otherwise take the faults themselves.
     */
    private void faultIn(int index, LongSupplier writePosition) {
        MemorySegment chunk = chunk(index);
        long start = chunkStart(index);
        for (long offset = 0; offset < chunk.byteSize() && !closed; offset += FAULT_IN_SLICE) {
            MemorySegment slice = chunk.asSlice(offset, Math.min(FAULT_IN_SLICE, chunk.byteSize() - offset));
            // Under the file's monitor: the downcall holds the mapping's arena, which close() could not close then.
            synchronized (this) {
                if (closed) {
                    return;
                }
                NativeIo.Populated populated = NativeIo.populateForWrite(slice);
                if (populated == NativeIo.Populated.FAILED) {
                    return;
                }
                if (populated == NativeIo.Populated.UNSUPPORTED) {
                    touchPages(slice);
                }
            }
            if (start + offset - writePosition.getAsLong() > blockSize / 2) {
                LockSupport.parkNanos(FAULT_IN_PAUSE_NANOS);
            }
        }
    }

    /**
     * Faults every page in with a compare-and-set of 0 by 0 on its first word: the page becomes present and
     * writable, and nothing changes even where an appender is writing at the same moment.
     */
    private static void touchPages(MemorySegment slice) {
        for (long offset = 0; offset + Integer.BYTES <= slice.byteSize(); offset += BlockDescriptor.PAGE) {
            Memory.casInt(slice, offset, 0, 0);
        }
    }

    /**
     * The mapping of a chunk the file already reaches, or null: for readers, which must never grow a file (nor
     * fail on a full disk) by looking past the last record.
     */
    public MemorySegment existingChunk(int index) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null) {
            return current[index];
        }
        return size() < chunkStart(index) + mappingSize ? null : chunk(index);
    }

    /** The chunk that holds a position, for one-off access away from a cursor (index entries, headers). */
    public MemorySegment chunkAt(long position) {
        MemorySegment chunk = chunk(chunkIndex(position));
        if (chunk == null) {
            throw new QueueException(path + " is too short to hold position " + position);
        }
        return chunk;
    }

    public void putLongRelease(long position, long value) {
        Memory.putLongRelease(chunkAt(position), position % blockSize, value);
    }

    public void putIntRelease(long position, int value) {
        Memory.putIntRelease(chunkAt(position), position % blockSize, value);
    }

    /** Forces the pages holding {@code [position, position + length)} to storage (msync), before returning. */
    public void force(long position, long length) {
        int index = chunkIndex(position);
        MemorySegment chunk = chunk(index);
        long offset = position - chunkStart(index);
        long alignedOffset = offset & -BlockDescriptor.PAGE;
        chunk.asSlice(alignedOffset, offset + length - alignedOffset).force();
    }

    /** Forces every mapped chunk's dirty pages to storage. */
    public void forceAll() {
        for (MemorySegment chunk : chunks) {
            if (chunk != null) {
                chunk.force();
            }
        }
    }

    public long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + path, e);
        }
    }

    private synchronized MemorySegment mapChunk(int index) {
        if (closed) {
            throw new QueueException(path + " is already closed");
        }
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null) {
            return current[index];
        }
        long start = chunkStart(index);
        try {
            if (!writable && channel.size() < start + mappingSize) {
                return null;
            }
            if (writable && channel.size() < start + mappingSize) {
                // Reserve the blocks first: a full disk is then an IOException here, not a crash on a later write.
                NativeIo.reserve(path, start, mappingSize);
                if (diskSpace != null) {
                    diskSpace.check();
                }
            } else if (writable) {
                // Already long enough, but maybe still sparse (its creator may have died before reserving it);
                // checking an allocated range is cheap. Not worth waiting for the downcalls to be linked, though.
                reserveExisting(start);
            }
            MemorySegment segment = channel.map(
                    writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, start, mappingSize,
                    arena);
            MemorySegment[] grown = Arrays.copyOf(current, Math.max(current.length, index + 1));
            grown[index] = segment;
            chunks = grown;
            return segment;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map " + mappingSize + " bytes at " + start + " of " + path + ": "
                    + e.getMessage(), e);
        }
    }

    private void reserveExisting(long start) throws IOException {
        if (NativeIo.isReady()) {
            NativeIo.reserve(path, start, mappingSize);
        } else {
            BackgroundWork.submit(() -> {
                try {
                    NativeIo.reserve(path, start, mappingSize);
                } catch (IOException e) {
                    Log.warning(MappedFile.class, "cannot reserve the blocks of " + path, e);
                }
            });
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        chunks = new MemorySegment[0];
        try {
            arena.close();
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + path, e);
            }
        }
    }
}
