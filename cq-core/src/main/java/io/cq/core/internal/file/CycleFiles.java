package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.QueueException;
import io.cq.core.QueueFilesystem;
import io.cq.core.RollCycle;
import io.cq.core.StoreFileListener;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.memory.MappedFile;
import io.cq.core.internal.system.AtomicFiles;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
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
    private final TreeSet<Long> listed = new TreeSet<>();
    /** The table store's cycle range when the directory was last listed; a change means the listing is stale. */
    private long listedMinCycle;
    private long listedMaxCycle;
    /** The table store's maxCycle when last listed (listedMaxCycle is what readers go by). */
    private long storedMaxCycle;
    private boolean everListed;
    private boolean closed;
    /** The file system of the directory. */
    private final QueueFilesystem filesystem;

    public CycleFiles(Path directory, CycleCalendar calendar, TableStore tableStore, boolean writable, long blockSize,
                      int indexSpacing, long reserveStep, FilePermissions permissions, DiskSpaceMonitor diskSpace,
                      StoreFileListener listener, QueueFilesystem filesystem) {
        this.filesystem = filesystem;
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
        return file;
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
            file.mapped().forgetReservation();
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
        ensureListingCurrent();
        Long next = listed.higher(cycle);
        return next == null || next > listedMaxCycle ? NO_CYCLE : next;
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
        long max = tableStore.maxCycle();
        long min = tableStore.minCycle();
        if (max == NO_CYCLE) {
            return;
        }
        long largest = Long.MAX_VALUE >>> rollCycle.sequenceBits();
        Path table = tableStore.path();
        if (max < 0 || max > largest) {
            throw new CorruptQueueException(table, TableStoreDescriptor.MAX_CYCLE_OFFSET, "maxCycle " + max
                    + " is not a cycle of " + rollCycle + " (0 to " + largest + ", or -1 for none)");
        }
        if (min != NO_CYCLE && (min < 0 || min > max)) {
            throw new CorruptQueueException(table, TableStoreDescriptor.MIN_CYCLE_OFFSET, "minCycle " + min
                    + " is not between 0 and maxCycle " + max);
        }
        refresh();
        if (!listed.contains(max)) {
            Long newest = listed.isEmpty() ? null : listed.last();
            throw new CorruptQueueException(table, TableStoreDescriptor.MAX_CYCLE_OFFSET, "maxCycle " + max + " names "
                    + pathOf(max).getFileName() + ", which does not exist (" + (newest == null ? "no cycle files"
                    : "the newest cycle file is " + pathOf(newest).getFileName()) + "); refusing to write from it");
        }
    }

    /**
     * Under the write lock, by a repair: when the table store's cycle range is one a writer refuses
     * ({@link #requireValidCycleRange()}), sets it to the cycle files there are, the newest being the newest one not
     * after {@code currentCycle} (a later one is a file made ahead of time, with nothing in it yet).
     *
     * @return the newest cycle as it was stored, or {@code null} when the range was valid and is left as it is
     */
    public synchronized Long resetInvalidCycleRange(long currentCycle) {
        try {
            requireValidCycleRange();
            return null;
        } catch (CorruptQueueException e) {
            long stored = tableStore.maxCycle();
            refresh();
            Long newest = listed.floor(currentCycle);
            if (newest == null && !listed.isEmpty()) {
                newest = listed.first();
            }
            tableStore.resetCycleRange(newest == null ? NO_CYCLE : listed.first(),
                    newest == null ? NO_CYCLE : newest);
            refresh();
            return stored;
        }
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
        refresh();
        return aside;
    }

    /** Whether opening a cycle file failed because it is of a format this cq does not read: no damage, then. */
    public static boolean isNewerFormat(CorruptQueueException e) {
        return e.position() == CycleHeaderDescriptor.FORMAT_VERSION_OFFSET
                && e.problem().startsWith("unsupported cycle file version");
    }

    /** The last cycle before {@code cycle} that has a file, or {@link #NO_CYCLE}. */
    public synchronized long previousCycle(long cycle) {
        ensureListingCurrent();
        Long previous = listed.lower(cycle);
        return previous == null ? NO_CYCLE : previous;
    }

    /** The oldest started cycle with a file, or {@link #NO_CYCLE}. */
    public synchronized long firstCycle() {
        ensureListingCurrent();
        return listed.isEmpty() || listed.first() > listedMaxCycle ? NO_CYCLE : listed.first();
    }

    /** The newest started cycle with a file, or {@link #NO_CYCLE}. */
    public synchronized long lastCycle() {
        ensureListingCurrent();
        Long last = listed.floor(listedMaxCycle);
        return last == null ? NO_CYCLE : last;
    }

    /** Cycles whose files exist but that no appender has started yet (created early by a pretoucher). */
    public synchronized NavigableSet<Long> unstartedCycles() {
        refresh();
        // Stepped through rather than copied from a tailSet view: this is on a new process's first roll, and the
        // view's nine classes are not in the JDK's shared archive.
        NavigableSet<Long> unstarted = new TreeSet<>();
        for (Long cycle = listed.higher(listedMaxCycle); cycle != null; cycle = listed.higher(cycle)) {
            unstarted.add(cycle);
        }
        return unstarted;
    }

    /** Every started cycle that has a file, oldest first; lists the directory. */
    public synchronized NavigableSet<Long> cycles() {
        refresh();
        return new TreeSet<>(listed.headSet(listedMaxCycle, true));
    }

    /**
     * Cycle files appear only under the write lock, before the table store's range is widened to include them,
     * so a listing taken after reading the range holds every file of that range: it is current while the range
     * has not changed. No system call unless it has.
     */
    private void ensureListingCurrent() {
        if (!everListed || tableStore.maxCycle() != storedMaxCycle || tableStore.minCycle() != listedMinCycle) {
            refresh();
        }
    }

    private void refresh() {
        storedMaxCycle = tableStore.maxCycle();
        listedMinCycle = tableStore.minCycle();
        everListed = true;
        listed.clear();
        for (String name : fileNames()) {
            if (!name.endsWith(SUFFIX)) {
                continue;
            }
            Optional<Long> cycle = calendar.parseCycle(name.substring(0, name.length() - SUFFIX.length()));
            if (cycle.isPresent()) {
                listed.add(cycle.get());
            }
        }
        // A newest cycle that names no file is damage (writers refuse it: requireValidCycleRange); readers go by the
        // files, so that what they hold is still read.
        listedMaxCycle = storedMaxCycle == NO_CYCLE || listed.contains(storedMaxCycle) || listed.isEmpty()
                ? storedMaxCycle : listed.last();
    }

    /**
     * The names in the queue's directory. {@code File.list} is one system call's worth of work and loads nothing;
     * a {@code DirectoryStream}, the first in a JVM, costs about 2 ms on a new queue's path to its first excerpt
     * (its classes, and a lambda generated for its iterator). It says nothing of why it failed, so a failure is
     * listed again through {@code Files}, which names the cause.
     */
    private String[] fileNames() {
        String[] names = directory.toFile().list();
        if (names != null) {
            return names;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            List<String> found = new ArrayList<>();
            for (Path path : stream) {
                found.add(path.getFileName().toString());
            }
            return found.toArray(new String[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the cycle files of " + directory + ": " + e.getMessage(), e);
        }
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
                file = new CycleFile(mapped, cycle);
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
        int indexCount = rollCycle.indexCount();
        long dataStart = CycleHeaderDescriptor.dataStart(indexCount);
        // The header and the primary index, written whole (their blocks allocated by the write); the records'
        // blocks are reserved a step at a time by the appenders (docs/file-format.md, "Reserving and shrinking").
        ByteBuffer header = ByteBuffer.allocate((int) dataStart).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong((int) CycleHeaderDescriptor.MAGIC_OFFSET, CycleHeaderDescriptor.MAGIC);
        header.putInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET, CycleHeaderDescriptor.FORMAT_VERSION);
        header.putInt((int) CycleHeaderDescriptor.HEADER_LENGTH_OFFSET, CycleHeaderDescriptor.HEADER_LENGTH);
        header.putLong((int) CycleHeaderDescriptor.CYCLE_OFFSET, cycle);
        header.putInt((int) CycleHeaderDescriptor.SEQUENCE_BITS_OFFSET, rollCycle.sequenceBits());
        header.putInt((int) CycleHeaderDescriptor.INDEX_COUNT_OFFSET, indexCount);
        header.putInt((int) CycleHeaderDescriptor.INDEX_SPACING_OFFSET, indexSpacing);
        header.putLong((int) CycleHeaderDescriptor.BLOCK_SIZE_OFFSET, blockSize);
        header.putLong((int) CycleHeaderDescriptor.CREATED_MILLIS_OFFSET, nowMillis);
        header.putLong((int) CycleHeaderDescriptor.DATA_START_OFFSET, dataStart);
        header.putLong((int) CycleHeaderDescriptor.WRITE_POSITION_OFFSET, dataStart);
        header.putLong((int) CycleHeaderDescriptor.SEQUENCE_OFFSET, 0);
        header.putLong((int) CycleHeaderDescriptor.PAGE_HINT_OFFSET, dataStart);
        try {
            AtomicFiles.createWithContent(pathOf(cycle), header, permissions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create cycle file " + pathOf(cycle) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks that a queue's directory can be used, creating it (with its permissions) for a writable queue.
     *
     * @throws QueueException saying why it cannot
     */
    public static void prepareDirectory(Path directory, boolean readOnly, FilePermissions permissions,
                                        boolean refuseShared) {
        if (!Files.isDirectory(directory)) {
            if (Files.exists(directory, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(directory)) {
                throw new QueueException("queue path " + directory + " exists but is not a directory");
            }
            if (readOnly) {
                throw new QueueException("queue directory " + directory + " does not exist; a queue opened read-only "
                        + "must already exist");
            }
            try {
                // Tolerates another process creating it at the same moment.
                permissions.createDirectories(directory);
            } catch (FileAlreadyExistsException e) {
                throw new QueueException("queue path " + directory + " exists but is not a directory");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create queue directory " + directory + ": " + e, e);
            }
        }
        if (!Files.isReadable(directory) || (!readOnly && !Files.isWritable(directory))) {
            throw new QueueException("queue directory " + directory + " is not "
                    + (readOnly ? "readable" : "readable and writable") + " by this process");
        }
        if (FilePermissions.isWritableByOthers(directory)) {
            if (refuseShared) {
                throw new QueueException("queue directory " + directory + " is writable by every user, who could "
                        + "replace or damage its files; refused (refuseSharedDirectory): chmod o-w " + directory);
            }
            Log.warning(CycleFiles.class, "queue directory {0} is writable by every user: any of them can replace "
                    + "or damage its files (chmod o-w {0})", directory);
        }
    }

    @Override
    public synchronized void close() {
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
