package io.cq.core.internal.memory;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.NativeIo;

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
import java.util.function.BooleanSupplier;

/**
 * A file mapped in chunks: chunk {@code i} maps {@code [i * blockSize, (i + 1) * blockSize + overlap)}, so a
 * record that starts in a chunk always lies whole inside it (docs/file-format.md, "Mapping"). Chunks are mapped
 * on first use and all unmapped together when the file is closed.
 *
 * <p>Two ways in. Writers take {@link #chunk(int)}, a whole chunk mapped read-write, which makes the file that
 * long (sparse: no block is allocated by it); before they write a byte they {@link #reserve reserve} its blocks,
 * so that a full disk is an {@link UncheckedIOException} from the append and never a SIGBUS on a page the file
 * system cannot back (docs/file-format.md, "Reserving and shrinking"). Readers take {@link #readableChunk}, which
 * maps only what the file holds (a finished cycle is shrunk to its records) and never makes a file longer.
 *
 * <p>Thread-safe: chunks are published through a volatile copy-on-write array; reservations and mappings are made
 * under the file's monitor.
 */
public final class MappedFile implements AutoCloseable {
    /** Zero-filled blocks for reserving without native access; never written into. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024).asReadOnlyBuffer();
    /** Fault-in granularity: 256 pages, a fraction of a millisecond of work. */
    private static final long FAULT_IN_SLICE = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private final boolean writable;
    private final long blockSize;
    /** One past the last position a chunk index (an int) can reach: positions from here on are in no file. */
    private final long unreachable;
    private final long mappingSize;
    private final long reserveStep;
    private final Arena arena = Arena.ofShared();
    private final DiskSpaceMonitor diskSpace;
    private volatile MemorySegment[] chunks = new MemorySegment[0];
    /** Bytes of every mapping made, shorter ones replaced by longer included: all stay mapped until close. */
    private volatile long mappedBytes;
    /** Blocks of {@code [0, reservedEnd)} are allocated, as far as this process knows. */
    private volatile long reservedEnd;
    /** How far the background has faulted pages in (a hint: pages may be reclaimed or the file cut since). */
    private volatile long populatedEnd;
    /** Cut to its records: nothing is reserved ahead in it again (a late background reservation would regrow it). */
    private boolean shrunk;
    /** Left by its appender for the next cycle: nothing is reserved ahead in it again. */
    private boolean reservingAheadStopped;
    /** This file's view of {@link #ZEROS}, reused by every reservation made with zeros. */
    private final ByteBuffer zeros = ZEROS.duplicate();
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
    private final Object mappingGuard = new Object();

    public MappedFile(Path path, FileChannel channel, boolean writable, long blockSize, long overlap,
                      long reserveStep, DiskSpaceMonitor diskSpace) {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        this.blockSize = blockSize;
        this.unreachable = Long.MAX_VALUE / blockSize > Integer.MAX_VALUE ? blockSize * Integer.MAX_VALUE
                : Long.MAX_VALUE;
        this.mappingSize = blockSize + overlap;
        this.reserveStep = reserveStep;
        this.diskSpace = diskSpace;
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
     * long but allocates nothing: write only where {@link #reserve} has reserved.
     */
    public MemorySegment chunk(int index) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null && current[index].byteSize() == mappingSize
                && !current[index].isReadOnly()) {
            return current[index];
        }
        return mapChunk(index, mappingSize, true);
    }

    /** How far ahead of its write position a file's blocks are reserved. */
    public long reserveStep() {
        return reserveStep;
    }

    /** How far this process knows the file's blocks to be allocated. */
    public long reservedEnd() {
        return reservedEnd;
    }

    /**
     * Allocates the file's blocks up to at least {@code end}, and a part of a step beyond, so that appends meet
     * this call once a step. Only the write-lock holder calls it: without native access the blocks are allocated
     * by writing zeros through the channel, which must never land on a record, so it writes only from
     * {@code freeFrom}, where nothing has been written yet (the free space after the last record), and above what
     * it reserved before. On a disk too full for the step beyond, only the pages up to {@code end} are allocated:
     * a nearly full disk refuses an append when that append's own bytes do not fit, not a step earlier.
     *
     * @return the new reserved end
     * @throws UncheckedIOException when the file system cannot allocate the blocks up to {@code end} (a full
     *                              disk), naming the file and the range; what was written before is intact
     */
    public synchronized long reserve(long freeFrom, long end) {
        if (end <= reservedEnd) {
            return reservedEnd;
        }
        if (closed) {
            throw new QueueException(path + " is already closed");
        }
        long target = reservedEnd == 0 ? BlockDescriptor.firstReservationEnd(end, reserveStep)
                : BlockDescriptor.reservationEnd(end, reserveStep);
        try {
            return reserveTo(freeFrom, target);
        } catch (UncheckedIOException stepTooLarge) {
            if (pageEnd(end) >= target) {
                throw stepTooLarge;
            }
            // The next append asks for a whole step again, so space freed meanwhile is used as before.
            return reserveTo(freeFrom, pageEnd(end));
        }
    }

    /**
     * {@link #reserve} without the step ahead: up to {@code end}, in whole pages. For a mark that ends a file (the
     * end-of-cycle mark), where nothing is written after it.
     */
    public synchronized long reserveExactly(long freeFrom, long end) {
        if (end <= reservedEnd) {
            return reservedEnd;
        }
        if (closed) {
            throw new QueueException(path + " is already closed");
        }
        return reserveTo(freeFrom, pageEnd(end));
    }

    private static long pageEnd(long end) {
        return (end + BlockDescriptor.PAGE - 1) & -BlockDescriptor.PAGE;
    }

    private long reserveTo(long freeFrom, long target) {
        long from = Math.max(reservedEnd, freeFrom);
        try {
            // The lock holder may grow the file; where fallocate cannot allocate, zeros over the free space do.
            if (!NativeIo.canReserveBlocksNow() || !NativeIo.reserve(cPath(), path, from, target - from, false)) {
                writeZeros(from, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reserve the blocks of " + path + " from " + from + " to " + target
                    + ": " + e.getMessage(), e);
        }
        reservedEnd = target;
        if (diskSpace != null) {
            diskSpace.observe();
        }
        return target;
    }

    /**
     * With native access, allocates the blocks up to {@code end} (and a part of a step beyond) without the write
     * lock, on the background thread, then faults in the pages up to {@code populateEnd}: {@code fallocate}
     * (keeping the file's length) and {@code madvise} change no byte of the file. Reserving runs further ahead than
     * faulting in, so an appender that catches up with the slower faulting still finds its blocks reserved and
     * never waits for it. Without native access, does nothing: the write-lock holder reserves when it gets there.
     * Failures are left for that appender to meet and report.
     */
    public void reserveAhead(long position, long end, long populateEnd, boolean readAhead,
                             BooleanSupplier stillWritten) {
        if (!writable || closed || end <= reservedEnd || !NativeIo.canReserveBlocksNow()) {
            return;
        }
        BackgroundWork.submit(() -> {
            if (reserveAheadNow(end, stillWritten)) {
                // Never behind the appender: pages it has written are in already.
                populate(Math.max(populatedEnd, position), Math.min(populateEnd, reservedEnd), readAhead);
            }
        });
    }

    /**
     * {@link #reserveAhead} on the calling thread (a pretoucher's); false where nothing was reserved.
     *
     * @param stillWritten whether the file is still the one appenders write (a finished cycle is not: another
     *                     process may have cut it to its records meanwhile, and reserving would regrow it)
     */
    public synchronized boolean reserveAheadNow(long end, BooleanSupplier stillWritten) {
        if (!writable || closed || shrunk || reservingAheadStopped || !NativeIo.canReserveBlocks()
                || !stillWritten.getAsBoolean()) {
            return false;
        }
        if (end <= reservedEnd) {
            return true;
        }
        // Only the write-lock holder changes a file's length (docs/file-format.md): this reserves within it and
        // keeps it, so a file another process cut meanwhile is not grown again.
        long target = Math.min(BlockDescriptor.reservationEnd(end, reserveStep), size());
        if (target <= reservedEnd) {
            return true;
        }
        try {
            if (!NativeIo.reserve(cPath(), path, reservedEnd, target - reservedEnd, true)) {
                return false;
            }
            reservedEnd = target;
            return true;
        } catch (IOException | RuntimeException e) {
            // the appender reserves again itself when it gets there, and reports the failure then
            return false;
        }
    }

    /**
     * Stops reservations ahead in this file, from the background thread and from pretouchers alike: once this
     * returns, none is in progress (they hold the same monitor) and none starts. For the file an appender leaves for
     * the next cycle: on a full disk, what retention deletes then makes room for the next cycle's file, not this one.
     */
    public synchronized void stopReservingAhead() {
        reservingAheadStopped = true;
    }

    /**
     * Another process may have shrunk the file since this one reserved (docs/file-format.md, "Reserving and
     * shrinking"): forget what was reserved, so the next append reserves again from its write position.
     */
    public synchronized void forgetReservation() {
        reservedEnd = 0;
        populatedEnd = 0;
    }

    private void writeZeros(long from, long to) throws IOException {
        long position = from;
        while (position < to) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - position));
            position += channel.write(zeros, position);
        }
    }

    /** The file's name as a C string, made once (under the monitor) and freed with the file's mappings. */
    private MemorySegment cPath() {
        if (cPath == null) {
            cPath = arena.allocateFrom(path.toString());
        }
        return cPath;
    }

    /**
     * Cuts the file to {@code length} (under the write lock: docs/file-format.md says who may, and when). Mappings
     * stay valid up to the new end; nobody touches them beyond it.
     */
    public synchronized void shrinkTo(long length) {
        if (closed) {
            return;
        }
        shrunk = true;
        try {
            if (channel.size() > length) {
                channel.truncate(length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot shrink " + path + " to " + length + " bytes: " + e.getMessage(), e);
        }
        reservedEnd = Math.min(reservedEnd, length);
        populatedEnd = Math.min(populatedEnd, length);
    }

    /**
     * Faults in the reserved pages of {@code [from, to)} now, with native access, a megabyte at a time; false where
     * it cannot. Holds the mapping guard per slice, not the file's monitor: an appender that needs a reservation
     * meanwhile never waits for a slice to fault in. Maps no more than the file holds: only the write-lock holder
     * makes a file longer.
     *
     * @param readAhead with the page cache's read-ahead, for an appender bound by memory rather than by stalls
     *                  ({@link NativeIo#populateForWrite(MemorySegment, boolean)})
     */
    public boolean populate(long from, long to, boolean readAhead) {
        if (!NativeIo.canReserveBlocks()) {
            return false;
        }
        for (long slice = from & -BlockDescriptor.PAGE; slice < to; slice += FAULT_IN_SLICE) {
            // The guard keeps the arena open during the downcall; close() takes it before closing the arena.
            synchronized (mappingGuard) {
                long end = Math.min(Math.min(to, slice + FAULT_IN_SLICE), reservedEnd);
                if (closed || end <= slice) {
                    return false;
                }
                int index = chunkIndex(slice);
                long start = chunkStart(index);
                MemorySegment chunk = chunkToPopulate(index, end - start);
                if (chunk == null || NativeIo.populateForWrite(chunk.asSlice(slice - start, end - slice), readAhead)
                        != NativeIo.Populated.DONE) {
                    return false;
                }
                populatedEnd = Math.max(populatedEnd, end);
            }
        }
        return true;
    }

    /**
     * A read-write mapping of a chunk that covers {@code needed} bytes, or null: the appender's when it has one (it
     * maps each chunk it writes, and the next one half-way, under the write lock); else one mapped here (a pretoucher
     * in a process that does not append), unless this process cut the file or stopped reserving in it. A mapping
     * sized by the length read here lengthens a file cut to less meanwhile, so that length is read under the monitor
     * that {@link #shrinkTo} holds.
     */
    private MemorySegment chunkToPopulate(int index, long needed) {
        MemorySegment[] current = chunks;
        if (index < current.length && current[index] != null && current[index].byteSize() >= needed
                && !current[index].isReadOnly()) {
            return current[index];
        }
        synchronized (this) {
            if (closed || shrunk || reservingAheadStopped) {
                return null;
            }
            long available = Math.min(mappingSize, size() - chunkStart(index));
            return available < needed ? null : mapChunk(index, available, true);
        }
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
        if (!isReachable(position)) {
            return 0; // no file reaches there
        }
        int index = chunkIndex(position);
        long offset = position - chunkStart(index);
        MemorySegment chunk = readableChunk(index, offset + Integer.BYTES);
        return chunk == null ? 0 : Memory.getIntAcquire(chunk, offset);
    }

    /** A long written with release semantics, acquired; 0 where the file does not reach yet. */
    public long longAcquireAt(long position) {
        if (!isReachable(position)) {
            return 0; // no file reaches there
        }
        int index = chunkIndex(position);
        long offset = position - chunkStart(index);
        MemorySegment chunk = readableChunk(index, offset + Long.BYTES);
        return chunk == null ? 0 : Memory.getLongAcquire(chunk, offset);
    }

    /** The chunk that holds {@code length} bytes at a position, for one-off reading (dumps). */
    public MemorySegment readableChunkAt(long position, long length) {
        int index = chunkIndex(position);
        MemorySegment chunk = readableChunk(index, position - chunkStart(index) + length);
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

    /**
     * Writes zeros over whatever is not zero in {@code [from, to)}, through the channel (so nothing is mapped or
     * lengthened for it), a 64 KiB piece at a time: for repairs, under the write lock.
     */
    public synchronized void zeroNonZero(long from, long to) {
        long end = Math.min(to, size());
        long at = from;
        while (at < end) {
            int index = chunkIndex(at);
            long start = chunkStart(index);
            long piece = Math.min(Math.min(64 << 10, end - at), start + blockSize - at);
            MemorySegment chunk = readableChunk(index, at - start + piece);
            boolean zero = chunk != null && MemorySegment.mismatch(chunk, at - start, at - start + piece,
                    MemorySegment.ofArray(new byte[(int) piece]), 0, piece) < 0;
            if (!zero) {
                try {
                    writeZeros(at, at + piece);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot zero " + piece + " bytes at " + at + " of " + path + ": "
                            + e.getMessage(), e);
                }
            }
            at += piece;
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

    private synchronized MemorySegment mapChunk(int index, long length, boolean forWriting) {
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
