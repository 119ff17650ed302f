package io.cq.core.internal.memory;

import io.cq.core.QueueException;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.os.FileBlocks;
import io.cq.core.internal.os.MemoryAdvice;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.DiskSpaceMonitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Which blocks of a mapped file are allocated, and allocating more a step ahead of the writer, so that a full disk is
 * an {@link UncheckedIOException} from an append and never a SIGBUS on a page the file system cannot back; and cutting
 * the file back (docs/file-format.md, "Reserving and shrinking"). Thread-safe: under the monitor of its
 * {@link MappedFile}, which mapping a chunk and faulting pages in hold too.
 */
public final class BlockReservation {
    /** Fault-in granularity: 256 pages, a fraction of a millisecond of work. */
    private static final long FAULT_IN_SLICE = 1 << 20;
    /** Zero-filled blocks for reserving without native access; never written into. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024).asReadOnlyBuffer();

    private final MappedFile file;
    private final Path path;
    private final FileChannel channel;
    private final long reserveStep;
    private final DiskSpaceMonitor diskSpace;
    /** This file's view of {@link #ZEROS}, reused by every reservation made with zeros. */
    private final ByteBuffer zeros = ZEROS.duplicate();
    /** Blocks of {@code [0, reservedEnd)} are allocated, as far as this process knows. */
    private volatile long reservedEnd;
    /** How far the background has faulted pages in (a hint: pages may be reclaimed or the file cut since). */
    private volatile long populatedEnd;
    /** Cut to its records: nothing is reserved ahead in it again (a late background reservation would regrow it). */
    private boolean shrunk;
    /** Left by its appender for the next cycle: nothing is reserved ahead in it again. */
    private boolean reservingAheadStopped;

    BlockReservation(MappedFile file, FileChannel channel, long reserveStep, DiskSpaceMonitor diskSpace) {
        this.file = file;
        this.path = file.path();
        this.channel = channel;
        this.reserveStep = reserveStep;
        this.diskSpace = diskSpace;
    }

    /** How far ahead of its write position a file's blocks are reserved. */
    public long reserveStep() {
        return reserveStep;
    }

    /** How far this process knows the file's blocks to be allocated. */
    long reservedEnd() {
        return reservedEnd;
    }

    /** How far the background has faulted pages in, as far as this process knows (a hint). */
    public long populatedEnd() {
        return populatedEnd;
    }

    /**
     * The appender's own fault-in, where the background has not got ahead of it: up to {@code to} (within what is
     * reserved) in {@code chunk}, its mapping of the chunk that starts at {@code chunkStart}, page by page
     * ({@link MemoryAdvice#populateForWrite(MemorySegment)}); returns how far pages are in now, or {@code from} where
     * they cannot be faulted in so (no native access, or the call failed: the appender's stores fault them then).
     * Without the guard the background takes: the appender writes this mapping anyway, so it is open.
     */
    public long populateOwn(MemorySegment chunk, long chunkStart, long from, long to) {
        long start = from & -BlockDescriptor.PAGE;
        long end = Math.min(to, reservedEnd);
        if (end <= start || !NativeAccess.canReserveBlocksNow()
                || MemoryAdvice.populateForWrite(chunk.asSlice(start - chunkStart, end - start))
                != MemoryAdvice.Populated.DONE) {
            return from;
        }
        return end;
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
    public long reserve(long freeFrom, long end) {
        synchronized (file) {
            if (end <= reservedEnd) {
                return reservedEnd;
            }
            requireOpen();
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
    }

    /**
     * {@link #reserve} without the step ahead: up to {@code end}, in whole pages. For a mark that ends a file (the
     * end-of-cycle mark), where nothing is written after it.
     */
    public long reserveExactly(long freeFrom, long end) {
        synchronized (file) {
            if (end <= reservedEnd) {
                return reservedEnd;
            }
            requireOpen();
            return reserveTo(freeFrom, pageEnd(end));
        }
    }

    private void requireOpen() {
        if (file.isClosed()) {
            throw new QueueException(path + " is already closed");
        }
    }

    private static long pageEnd(long end) {
        return (end + BlockDescriptor.PAGE - 1) & -BlockDescriptor.PAGE;
    }

    private long reserveTo(long freeFrom, long target) {
        long from = Math.max(reservedEnd, freeFrom);
        try {
            // The lock holder may grow the file; where fallocate cannot allocate, zeros over the free space do.
            if (!NativeAccess.canReserveBlocksNow()
                    || !FileBlocks.reserve(file.cPath(), path, from, target - from, false)) {
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
        if (!file.writable() || file.isClosed() || end <= reservedEnd || !NativeAccess.canReserveBlocksNow()) {
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
    public boolean reserveAheadNow(long end, BooleanSupplier stillWritten) {
        synchronized (file) {
            if (!file.writable() || file.isClosed() || shrunk || reservingAheadStopped
                    || !NativeAccess.canReserveBlocks() || !stillWritten.getAsBoolean()) {
                return false;
            }
            if (end <= reservedEnd) {
                return true;
            }
            // Only the write-lock holder changes a file's length (docs/file-format.md): this reserves within it and
            // keeps it, so a file another process cut meanwhile is not grown again.
            long target = Math.min(BlockDescriptor.reservationEnd(end, reserveStep), file.size());
            if (target <= reservedEnd) {
                return true;
            }
            try {
                if (!FileBlocks.reserve(file.cPath(), path, reservedEnd, target - reservedEnd, true)) {
                    return false;
                }
                reservedEnd = target;
                return true;
            } catch (IOException | RuntimeException e) {
                // the appender reserves again itself when it gets there, and reports the failure then
                return false;
            }
        }
    }

    /**
     * Faults in the reserved pages of {@code [from, to)} now, with native access, a megabyte at a time; false where
     * it cannot. Holds the mapping guard per slice, not the file's monitor: an appender that needs a reservation
     * meanwhile never waits for a slice to fault in. Maps no more than the file holds: only the write-lock holder
     * makes a file longer.
     *
     * @param readAhead with the page cache's read-ahead, for an appender bound by memory rather than by stalls
     *                  ({@link io.cq.core.internal.os.MemoryAdvice#populateForWrite(MemorySegment, boolean)})
     */
    public boolean populate(long from, long to, boolean readAhead) {
        if (!NativeAccess.canReserveBlocks()) {
            return false;
        }
        for (long slice = from & -BlockDescriptor.PAGE; slice < to; slice += FAULT_IN_SLICE) {
            // The guard keeps the arena open during the downcall; close() takes it before closing the arena.
            synchronized (file.mappingGuard) {
                long end = Math.min(Math.min(to, slice + FAULT_IN_SLICE), reservedEnd);
                if (file.isClosed() || end <= slice) {
                    return false;
                }
                int index = file.chunkIndex(slice);
                long start = file.chunkStart(index);
                MemorySegment chunk = chunkToPopulate(index, end - start);
                if (chunk == null || MemoryAdvice.populateForWrite(chunk.asSlice(slice - start, end - slice), readAhead)
                        != MemoryAdvice.Populated.DONE) {
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
        MemorySegment[] current = file.chunks();
        if (index < current.length && current[index] != null && current[index].byteSize() >= needed
                && !current[index].isReadOnly()) {
            return current[index];
        }
        synchronized (file) {
            if (file.isClosed() || shrunk || reservingAheadStopped) {
                return null;
            }
            long available = Math.min(file.mappingSize(), file.size() - file.chunkStart(index));
            return available < needed ? null : file.mapChunk(index, available, true);
        }
    }

    /**
     * Stops reservations ahead in this file, from the background thread and from pretouchers alike: once this
     * returns, none is in progress (they hold the same monitor) and none starts. For the file an appender leaves for
     * the next cycle: on a full disk, what retention deletes then makes room for the next cycle's file, not this one.
     */
    public void stopReservingAhead() {
        synchronized (file) {
            reservingAheadStopped = true;
        }
    }

    /**
     * Another process may have shrunk the file since this one reserved (docs/file-format.md, "Reserving and
     * shrinking"): forget what was reserved, so the next append reserves again from its write position.
     */
    public void forgetReservation() {
        synchronized (file) {
            reservedEnd = 0;
            populatedEnd = 0;
        }
    }

    /**
     * Cuts the file to {@code length} (under the write lock: docs/file-format.md says who may, and when). Mappings
     * stay valid up to the new end; nobody touches them beyond it.
     */
    public void shrinkTo(long length) {
        synchronized (file) {
            if (file.isClosed()) {
                return;
            }
            shrunk = true;
            try {
                if (channel.size() > length) {
                    channel.truncate(length);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot shrink " + path + " to " + length + " bytes: " + e.getMessage(),
                        e);
            }
            reservedEnd = Math.min(reservedEnd, length);
            populatedEnd = Math.min(populatedEnd, length);
        }
    }

    /**
     * Writes zeros over whatever is not zero in {@code [from, to)}, through the channel (so nothing is mapped or
     * lengthened for it), a 64 KiB piece at a time: for repairs, under the write lock.
     */
    public void zeroNonZero(long from, long to) {
        synchronized (file) {
            zeroNonZeroUnder(from, to);
        }
    }

    private void zeroNonZeroUnder(long from, long to) {
        long end = Math.min(to, file.size());
        long at = from;
        while (at < end) {
            int index = file.chunkIndex(at);
            long start = file.chunkStart(index);
            long piece = Math.min(Math.min(64 << 10, end - at), start + file.blockSize() - at);
            MemorySegment chunk = file.readableChunk(index, at - start + piece);
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

    /** Writes zeros over {@code [from, to)} through the channel: nothing is mapped or lengthened for it. */
    void writeZeros(long from, long to) throws IOException {
        long position = from;
        while (position < to) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - position));
            position += channel.write(zeros, position);
        }
    }
}
