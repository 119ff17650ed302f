package io.cq.core.internal.memory;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A file mapped in chunks: chunk {@code i} maps {@code [i * blockSize, (i + 1) * blockSize + overlap)}, so a
 * record that starts in a chunk always lies whole inside it (docs/file-format.md, "Mapping"). Chunks are mapped
 * on first use and all unmapped together when the file is closed.
 *
 * <p>Two ways in. Writers take {@link #chunk(int)}, a whole chunk mapped read-write, which makes the file that
 * long (sparse: no block is allocated by it); before they write a byte they reserve its blocks ({@link #blocks()}),
 * so that a full disk is an {@link UncheckedIOException} from the append and never a SIGBUS on a page the file
 * system cannot back (docs/file-format.md, "Reserving and shrinking"). Readers take {@link #readableChunk}, which
 * maps only what the file holds (a finished cycle is shrunk to its records) and never makes a file longer.
 *
 * <p>Thread-safe: chunks are published through a volatile copy-on-write array; reservations and mappings are made
 * under the file's monitor.
 */
public final class MappedFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final boolean writable;
    private final long blockSize;
    /** One past the last position a chunk index (an int) can reach: positions from here on are in no file. */
    private final long unreachable;
    private final long mappingSize;
    private final Arena arena = Arena.ofShared();
    private final BlockReservation blocks;
    private volatile MemorySegment[] chunks = new MemorySegment[0];
    /** Bytes of every mapping made, shorter ones replaced by longer included: all stay mapped until close. */
    private volatile long mappedBytes;
    private MemorySegment cPath;
    /**
     * For a writable file's readers: the file opened again read-only, which maps only what the file holds. Through
     * the read-write channel, a mapping sized by a length read before another process cut the file (a roll's cut,
     * a closing last writer's) would make it that long again. Null until needed, or when the file is gone.
     */
    private FileChannel readChannel;
    private boolean readChannelOpened;
    /** The writers' read-write mapping of the header and primary index ({@link #headerChunk}), forced with the rest. */
    private volatile MemorySegment header;
    private volatile boolean closed;
    /** Held while a downcall uses a mapping outside the monitor, and by close() before the arena closes. */
    final Object mappingGuard = new Object();

    public MappedFile(Path path, FileChannel channel, boolean writable, long blockSize, long overlap,
                      long reserveStep, DiskSpaceMonitor diskSpace) {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        this.blockSize = blockSize;
        this.unreachable = Long.MAX_VALUE / blockSize > Integer.MAX_VALUE ? blockSize * Integer.MAX_VALUE
                : Long.MAX_VALUE;
        this.mappingSize = blockSize + overlap;
        this.blocks = new BlockReservation(this, channel, reserveStep, diskSpace);
    }

    public Path path() {
        return path;
    }

    /** Whether a position can lie in a file of this block size at all (not negative, its chunk index an int). */
    public boolean isReachable(long position) {
        return position >= 0 && position < unreachable;
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

    // ---- writing --------------------------------------------------------------------------------------

    /**
     * The whole mapping of a chunk, read-write, for the write-lock holder. Mapping makes the file at least that
     * long but allocates nothing: write only where {@link BlockReservation#reserve} has reserved.
     */
    public MemorySegment chunk(int index) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null && current[index].byteSize() == mappingSize
                && !current[index].isReadOnly()) {
            return current[index];
        }
        return mapChunk(index, mappingSize, true);
    }

    /** Its blocks: which are allocated, reserving more, cutting the file back. */
    public BlockReservation blocks() {
        return blocks;
    }

    /** How far this process knows the file's blocks to be allocated (read on every append). */
    public long reservedEnd() {
        return blocks.reservedEnd();
    }

    /** The file's name as a C string, made once (under the monitor) and freed with the file's mappings. */
    synchronized MemorySegment cPath() {
        if (cPath == null) {
            cPath = arena.allocateFrom(path.toString());
        }
        return cPath;
    }

    boolean isClosed() {
        return closed;
    }

    /** The chunks mapped so far, by index (null where none); a volatile read of a copy-on-write array. */
    MemorySegment[] chunks() {
        return chunks;
    }

    long mappingSize() {
        return mappingSize;
    }

    /** {@link BlockReservation#populate}: for a pretoucher. */
    public boolean populate(long from, long to, boolean readAhead) {
        return blocks.populate(from, to, readAhead);
    }

    // ---- reading --------------------------------------------------------------------------------------

    /**
     * A mapping of a chunk that covers at least its first {@code needed} bytes, or null when the file does not hold
     * them (yet). Maps what the file holds, up to the whole chunk, and never makes the file longer: for readers,
     * which look past the last record and must neither grow a file nor fail on a full disk for it.
     */
    public MemorySegment readableChunk(int index, long needed) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null && current[index].byteSize() >= needed) {
            return current[index];
        }
        while (true) {
            long available = Math.min(mappingSize, size() - chunkStart(index));
            if (available < needed || available <= 0) {
                return null;
            }
            MemorySegment chunk = mapChunk(index, available, false);
            if (chunk != null) {
                return chunk;
            }
            // cut by another process since its length was read: read it again
        }
    }

    /**
     * The header and primary index ({@code [0, length)}), read-write in a writable file, whose writers update them in
     * place: every cycle file holds them from its creation on, and no cut goes below them.
     */
    public synchronized MemorySegment headerChunk(long length) {
        if (!writable) {
            return readableChunkAt(0, length);
        }
        if (closed) {
            throw new QueueException(path + " is already closed");
        }
        try {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            mappedBytes += length;
            header = mapped;
            return mapped;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the header of " + path + ": " + e.getMessage(), e);
        }
    }

    /** A little-endian long read through the channel (no mapping), as the file holds it now. */
    public long readLongAt(long position) {
        ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new QueueException(path + " is too short to hold 8 bytes at position " + position);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + " at " + position + ": " + e.getMessage(), e);
        }
        return buffer.getLong(0);
    }

    /** The header word at a position, acquired; 0 (free) where the file does not reach yet. */
    public int intAcquireAt(long position) {
        MemorySegment chunk = chunkHolding(position, Integer.BYTES);
        return chunk == null ? 0 : Memory.getIntAcquire(chunk, position - chunkStart(chunkIndex(position)));
    }

    /** A long written with release semantics, acquired; 0 where the file does not reach yet. */
    public long longAcquireAt(long position) {
        MemorySegment chunk = chunkHolding(position, Long.BYTES);
        return chunk == null ? 0 : Memory.getLongAcquire(chunk, position - chunkStart(chunkIndex(position)));
    }

    /** The readable chunk that holds {@code bytes} at a position, or null where no file reaches (yet). */
    private MemorySegment chunkHolding(long position, long bytes) {
        if (!isReachable(position)) {
            return null;
        }
        int index = chunkIndex(position);
        return readableChunk(index, position - chunkStart(index) + bytes);
    }

    /** The chunk that holds {@code length} bytes at a position, for one-off reading (dumps). */
    public MemorySegment readableChunkAt(long position, long length) {
        MemorySegment chunk = chunkHolding(position, length);
        if (chunk == null) {
            throw new QueueException(path + " is too short to hold " + length + " bytes at position " + position);
        }
        return chunk;
    }

    public void putLongRelease(long position, long value) {
        Memory.putLongRelease(chunk(chunkIndex(position)), position % blockSize, value);
    }

    public void putIntRelease(long position, int value) {
        Memory.putIntRelease(chunk(chunkIndex(position)), position % blockSize, value);
    }

    /** Forces the pages holding {@code [position, position + length)} to storage (msync), before returning. */
    public void force(long position, long length) {
        int index = chunkIndex(position);
        MemorySegment chunk = chunk(index);
        long offset = position - chunkStart(index);
        long alignedOffset = offset & -BlockDescriptor.PAGE;
        chunk.asSlice(alignedOffset, offset + length - alignedOffset).force();
    }

    /** Forces the dirty pages of every chunk written through, and of the header, to storage. */
    public void forceAll() {
        MemorySegment writtenHeader = header;
        if (writtenHeader != null) {
            writtenHeader.force();
        }
        for (MemorySegment chunk : chunks) {
            if (chunk != null && chunk.byteSize() == mappingSize && !chunk.isReadOnly()) {
                chunk.force();
            }
        }
    }

    /** Bytes of address space this file's mappings take now (0 once closed). */
    public long mappedBytes() {
        return closed ? 0 : mappedBytes;
    }

    public long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + path, e);
        }
    }

    synchronized MemorySegment mapChunk(int index, long length, boolean forWriting) {
        if (closed) {
            throw new QueueException(path + " is already closed");
        }
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null && current[index].byteSize() >= length
                && (!forWriting || !current[index].isReadOnly())) {
            return current[index];
        }
        if (forWriting && !writable) {
            throw new IllegalStateException(path + " is open read-only");
        }
        long start = chunkStart(index);
        // A read-only channel maps only what the file holds (mapping more fails); a writer's mapping of a whole
        // chunk extends the file, sparse. Older, shorter mappings stay valid until the file closes.
        FileChannel mapping = forWriting || !writable ? channel : readChannel();
        try {
            MemorySegment segment = mapping.map(mapping == channel && writable ? FileChannel.MapMode.READ_WRITE
                    : FileChannel.MapMode.READ_ONLY, start, length, arena);
            MemorySegment[] grown = Arrays.copyOf(current, Math.max(current.length, index + 1));
            grown[index] = segment;
            chunks = grown;
            mappedBytes += length;
            return segment;
        } catch (IOException e) {
            if (!forWriting && size() < start + length) {
                return null; // cut by another process since its length was read (readableChunk reads it again)
            }
            throw new UncheckedIOException("cannot map " + length + " bytes at " + start + " of " + path + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The read-only channel readers of a writable file map through, opened on first use; the read-write one when the
     * path names no file any more (retention deleted it: a length set on it changes no file anyone opens). A path
     * that names another file names a finished cycle's sparse copy, which holds the same bytes.
     */
    private FileChannel readChannel() {
        if (!readChannelOpened) {
            try {
                readChannel = FileChannel.open(path, StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                readChannel = null;
            } catch (IOException e) {
                // Tried again next time: mapped through the read-write channel, a reader could lengthen the file.
                throw new UncheckedIOException("cannot open " + path + " for reading: " + Failures.describe(e), e);
            }
            readChannelOpened = true;
        }
        return readChannel == null ? channel : readChannel;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            chunks = new MemorySegment[0];
            header = null;
        }
        // After a slice being faulted in (which holds the guard, then maps under the monitor) is done.
        synchronized (mappingGuard) {
            try {
                arena.close();
            } finally {
                try (FileChannel reading = readChannel; FileChannel writing = channel) {
                    // both closed, whatever either throws
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot close " + path, e);
                }
            }
        }
    }
}
