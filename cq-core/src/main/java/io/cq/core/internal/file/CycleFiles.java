package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.QueueException;
import io.cq.core.QueueFilesystem;
import io.cq.core.RollCycle;
import io.cq.core.StoreFileListener;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.memory.MappedFile;
import io.cq.core.internal.system.AtomicFiles;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.function.Consumer;

/**
 * The cycle files of one queue: which exist (a cached directory listing, refreshed only when the table store
 * says a newer cycle exists), and the open ones, shared and reference-counted so that each file is mapped
 * once per queue and unmapped when no appender or tailer uses it. Thread-safe.
 */
public final class CycleFiles implements AutoCloseable {
    /** Appended to the name of a cycle file a repair set aside ({@link #setAside(long)}). */
    public static final String DAMAGED_SUFFIX = ".damaged";
    public static final String SUFFIX = ".cq4";
    public static final long NO_CYCLE = TableStore.NO_CYCLE;

    private final Path directory;
    private final RollCycle rollCycle;
    private final CycleCalendar calendar;
    private final TableStore tableStore;
    private final boolean writable;
    private final long blockSize;
    private final int indexSpacing;
    private final long reserveStep;
    private final FilePermissions permissions;
    private final DiskSpaceMonitor diskSpace;
    private final StoreFileListener listener;
    private final Map<Long, CycleFile> open = new HashMap<>();
    /** Which cycles have a file; used under this object's lock. */
    private final CycleListing listing;
    private boolean closed;
    /** The newest file an appender acquired, held open for the next one (keepOpen). */
    private CycleFile kept;
    private final QueueFilesystem filesystem;
    /** How the excerpts of files made here are framed: the queue's codecs; null for a plain queue. */
    private final FileCodecs newFileCodecs;

    public CycleFiles(Path directory, CycleCalendar calendar, TableStore tableStore, boolean writable, long blockSize,
                      int indexSpacing, long reserveStep, FilePermissions permissions, DiskSpaceMonitor diskSpace,
                      StoreFileListener listener, QueueFilesystem filesystem, FileCodecs newFileCodecs) {
        this.filesystem = filesystem;
        this.newFileCodecs = newFileCodecs;
        this.reserveStep = reserveStep;
        this.listener = listener;
        this.permissions = permissions;
        this.diskSpace = diskSpace;
        this.directory = directory;
        this.calendar = calendar;
        this.rollCycle = calendar.rollCycle();
        this.tableStore = tableStore;
        this.writable = writable;
        this.blockSize = blockSize;
        this.indexSpacing = indexSpacing;
        this.listing = new CycleListing(directory, calendar, tableStore);
    }

    public Path directory() {
        return directory;
    }

    /** Whether this process may write the queue's files. */
    public boolean writable() {
        return writable;
    }

    /** The file system of the queue's directory. */
    public QueueFilesystem filesystem() {
        return filesystem;
    }

    /** The free space under the queue's directory. */
    public DiskSpaceMonitor diskSpace() {
        return diskSpace;
    }

    public RollCycle rollCycle() {
        return rollCycle;
    }

    /** When the queue's cycles begin; names their files. */
    public CycleCalendar calendar() {
        return calendar;
    }

    public TableStore tableStore() {
        return tableStore;
    }

    public Path pathOf(long cycle) {
        return directory.resolve(calendar.fileName(cycle) + SUFFIX);
    }

    /** Opens an existing cycle file, or returns null when the cycle has no file. */
    public synchronized CycleFile acquire(long cycle) {
        CycleFile file = open.get(cycle);
        if (file == null) {
            file = openFile(cycle);
            if (file == null) {
                return null;
            }
        }
        file.references++;
        return file;
    }

    /** Runs {@code action} on a cycle's file, held open meanwhile; nothing when the cycle has no file. */
    public void withFile(long cycle, Consumer<CycleFile> action) {
        CycleFile file = acquire(cycle);
        if (file == null) {
            return;
        }
        try {
            action.accept(file);
        } finally {
            release(file);
        }
    }

    /** Opens a cycle's file, creating it first when missing. Only under the queue's write lock. */
    public synchronized CycleFile acquireOrCreate(long cycle, long nowMillis) {
        if (!open.containsKey(cycle) && !Files.exists(pathOf(cycle))) {
            create(cycle, nowMillis);
        }
        CycleFile file = acquire(cycle);
        if (file == null) {
            throw new QueueException("cycle file " + pathOf(cycle) + " vanished right after it was created");
        }
        keepOpen(file);
        return file;
    }

    /**
     * Keeps the newest file appended to open until a newer one is, or the queue closes: an appender made, used once
     * and closed (a request's, a virtual thread's) would otherwise open, map, check and unmap the file under the
     * write lock each time, about 200 µs, and unmapping a shared arena stops every thread of the JVM for a moment.
     */
    private void keepOpen(CycleFile file) {
        if (kept == file || kept != null && kept.cycle() > file.cycle()) {
            return;
        }
        file.references++;
        CycleFile previous = kept;
        kept = file;
        release(previous);
    }

    public synchronized void release(CycleFile file) {
        if (file == null || --file.references > 0) {
            return;
        }
        open.remove(file.cycle());
        file.mapped().close();
        listener.onReleased(file.cycle(), file.path());
    }

    /** Cycle files open now (for monitoring). */
    public synchronized int openFileCount() {
        return open.size();
    }

    /** Bytes mapped for the open cycle files (for monitoring). */
    public synchronized long mappedBytes() {
        long total = 0;
        for (CycleFile file : open.values()) {
            total += file.mapped().mappedBytes();
        }
        return total;
    }

    /** After another process shrank files: forget what this process reserved in any of them. */
    public synchronized void forgetReservations() {
        for (CycleFile file : open.values()) {
            file.mapped().blocks().forgetReservation();
        }
    }

    /** Forces the written pages of every open cycle file and of the table store to storage. */
    public void forceWritten() {
        java.util.List<CycleFile> snapshot;
        synchronized (this) {
            if (closed) {
                return;
            }
            snapshot = new java.util.ArrayList<>(open.values());
            for (CycleFile file : snapshot) {
                file.references++;
            }
        }
        try {
            for (CycleFile file : snapshot) {
                file.mapped().forceAll();
            }
            tableStore.force();
        } finally {
            for (CycleFile file : snapshot) {
                release(file);
            }
        }
    }

    /**
     * The first cycle after {@code cycle} that has a file, or {@link #NO_CYCLE}. Files of cycles after the
     * table store's newest one (created early by a pretoucher) are not visible until an appender starts them.
     */
    public synchronized long nextCycle(long cycle) {
        return listing.nextCycle(cycle);
    }

    /**
     * Before a writer trusts the table store's cycle range (docs/file-format.md, "Table store"): appenders roll to
     * {@code maxCycle} and create its file if missing, so a damaged value would make them write to a file no reader
     * finds (named 19691231.cq4, or +2407006960229.cq4). The newest cycle must be one that has a file, within what an
     * index can hold, and not below the oldest.
     *
     * @throws CorruptQueueException naming the table store, the field's offset, and what was expected and found
     */
    public synchronized void requireValidCycleRange() {
        listing.requireValidRange();
    }

    /**
     * Under the write lock, by a repair: when the table store's cycle range is one a writer refuses
     * ({@link #requireValidCycleRange()}), sets it to the cycle files there are, the newest being the newest one not
     * after {@code currentCycle} (a later one is a file made ahead of time, with nothing in it yet).
     *
     * @return the newest cycle as it was stored, or {@code null} when the range was valid and is left as it is
     */
    public synchronized Long resetInvalidCycleRange(long currentCycle) {
        return listing.resetInvalidRange(currentCycle);
    }

    /**
     * Under the write lock, by a repair: renames a cycle file whose header cannot be read to
     * {@code <name>.cq4.damaged}, so readers and writers go on without it, and keeps its bytes for whoever wants
     * them. Readers ignore the new name; {@code cq verify} notes the file.
     *
     * @return the new path
     */
    public synchronized Path setAside(long cycle) {
        Path file = pathOf(cycle);
        // Never over one set aside before (a cycle recreated after its file was set aside, then damaged again).
        Path aside = file.resolveSibling(file.getFileName() + DAMAGED_SUFFIX);
        for (int n = 1; Files.exists(aside, LinkOption.NOFOLLOW_LINKS); n++) {
            aside = file.resolveSibling(file.getFileName() + DAMAGED_SUFFIX + "." + n);
        }
        try {
            Files.move(file, aside);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rename " + file + " to " + aside + ": " + e.getMessage(), e);
        }
        listing.refresh();
        return aside;
    }

    /** Whether opening a cycle file failed because it is of a format this cq does not read: no damage, then. */
    public static boolean isNewerFormat(CorruptQueueException e) {
        return e.position() == CycleHeaderDescriptor.FORMAT_VERSION_OFFSET
                && e.problem().startsWith("unsupported cycle file version");
    }

    /** The last cycle before {@code cycle} that has a file, or {@link #NO_CYCLE}. */
    public synchronized long previousCycle(long cycle) {
        return listing.previousCycle(cycle);
    }

    /** The oldest started cycle with a file, or {@link #NO_CYCLE}. */
    public synchronized long firstCycle() {
        return listing.firstCycle();
    }

    /** The newest started cycle with a file, or {@link #NO_CYCLE}. */
    public synchronized long lastCycle() {
        return listing.lastCycle();
    }

    /** Cycles whose files exist but that no appender has started yet (created early by a pretoucher). */
    public synchronized NavigableSet<Long> unstartedCycles() {
        return listing.unstartedCycles();
    }

    /** Every started cycle that has a file, oldest first; lists the directory. */
    public synchronized NavigableSet<Long> cycles() {
        return listing.cycles();
    }

    private CycleFile openFile(long cycle) {
        if (closed) {
            throw new QueueException("queue " + directory + " is closed");
        }
        Path path = pathOf(cycle);
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            // Opening a FIFO blocks until someone writes to it; a device or a directory is no cycle file either.
            throw new CorruptQueueException(path, 0, "expected a regular cycle file, found a FIFO, device or "
                    + "directory under that name; refusing to open it");
        }
        FileChannel channel;
        try {
            channel = writable
                    ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open cycle file " + path + ": " + Failures.describe(e), e);
        }
        try {
            long fileBlockSize = CycleFileHeaders.validate(path, channel, cycle);
            MappedFile mapped = new MappedFile(path, channel, writable, fileBlockSize,
                    BlockDescriptor.overlap(fileBlockSize), Math.min(reserveStep, fileBlockSize),
                    writable ? diskSpace : null);
            CycleFile file;
            try {
                file = new CycleFile(mapped, cycle, newFileCodecs);
            } catch (RuntimeException e) {
                // Its mappings and its read-only channel too, not only the channel opened here.
                try {
                    mapped.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            open.put(cycle, file);
            listener.onAcquired(cycle, path);
            return file;
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private void create(long cycle, long nowMillis) {
        if (!writable) {
            throw new QueueException("queue " + directory + " is read-only; cannot create cycle file " + pathOf(cycle));
        }
        ByteBuffer header = CycleFileHeaders.newHeader(cycle, rollCycle, indexSpacing, blockSize, nowMillis,
                newFileCodecs);
        try {
            AtomicFiles.createWithContent(pathOf(cycle), header, permissions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create cycle file " + pathOf(cycle) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        CycleFile last = kept;
        kept = null;
        // Released like any other, so a StoreFileListener hears of it.
        release(last);
        closed = true;
        for (CycleFile file : open.values()) {
            file.mapped().close();
        }
        open.clear();
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the open failed already; that error is the one worth reporting
        }
    }

    /** The error for a file that does not start with the cycle-file magic. */
    public static CorruptQueueException notACycleFile(Path path, long magic) {
        return new CorruptQueueException(path, 0, String.format(
                "not a cq cycle file: expected magic 'cq.cycle' (0x%016x), found 0x%016x", CycleHeaderDescriptor.MAGIC,
                magic));
    }
}
