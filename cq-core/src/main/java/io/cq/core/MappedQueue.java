package io.cq.core;

import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.inspect.QueueDumper;
import io.cq.core.internal.inspect.QueueVerifier;
import io.cq.core.internal.queue.AppendCounter;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.internal.queue.StoreAppender;
import io.cq.core.internal.queue.StoreTailer;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.NativeIo;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.table.TableStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * A persisted queue in memory-mapped files under one directory: one file per {@link RollCycle cycle} plus a
 * table store ({@code metadata.cq4t}) with the queue's settings, its write lock and its named tailers. Any
 * number of threads and processes on the machine may append to and tail the same directory at once. The file
 * format and the protocol are described in {@code docs/file-format.md}.
 *
 * <p>Thread-safe. Appenders and tailers are not: {@link #acquireAppender()} gives each thread its own appender,
 * and a tailer belongs to the thread that uses it. Close the queue after its appenders and tailers are done;
 * closing it closes them.
 */
public final class MappedQueue implements AutoCloseable {

    private final Path directory;
    private final boolean readOnly;
    private final long blockSize;
    private final int indexSpacing;
    private final TableStore tableStore;
    private final DiskSpaceMonitor diskSpace;
    private final Durability durability;
    private final ScheduledFuture<?> flusher;
    private final ScheduledFuture<?> pretoucher;
    private static final long PRETOUCH_INTERVAL_NANOS = 20_000_000;
    private final CycleFiles files;
    private final QueueContext context;
    private final Set<AutoCloseable> resources = ConcurrentHashMap.newKeySet();
    private final AppendCounter appended = new AppendCounter();
    private final ThreadLocal<StoreAppender> appenders = new ThreadLocal<>();
    private volatile boolean closed;
    private CycleFile newest;

    MappedQueue(MappedQueueBuilder settings) {
        this.directory = settings.directory();
        this.readOnly = settings.readOnlySetting();
        this.blockSize = settings.blockSizeSetting();
        this.indexSpacing = settings.indexSpacingSetting();
        RollCycle requestedRollCycle = settings.requestedRollCycle();
        Clock clock = settings.clockSetting();
        FilePermissions permissions = new FilePermissions(settings.filePermissionsSetting());
        prepareDirectory(directory, readOnly, permissions);
        if (!readOnly) {
            NativeIo.warmUpInBackground();
        }
        this.diskSpace = new DiskSpaceMonitor(directory, settings.diskSpaceWarningBytes(), settings.diskSpaceWarningPercent());
        this.tableStore = TableStore.open(directory, readOnly, requestedRollCycle, clock.millis(), permissions);
        RollCycle rollCycle = tableStore.rollCycle();
        if (rollCycle != requestedRollCycle) {
            if (settings.rollCycleChosen()) {
                Log.warning(MappedQueue.class, "queue {0} was created with roll cycle {1}; using it instead of the "
                        + "requested {2}", directory, rollCycle, requestedRollCycle);
            }
            try {
                MappedQueueBuilder.requireBlockSizeFits(blockSize, rollCycle);
            } catch (IllegalArgumentException e) {
                tableStore.release();
                throw e;
            }
        }
        this.files = new CycleFiles(directory, rollCycle, tableStore, !readOnly, blockSize, indexSpacing, permissions,
                diskSpace, settings.storeFileListenerSetting());
        this.durability = readOnly ? Durability.PAGE_CACHE : settings.durabilitySetting();
        this.context = new QueueContext(this, files, tableStore, rollCycle, clock, settings.writeLockCheckNanos(),
                durability == Durability.SYNC, settings.retention(), resources, appended);
        this.flusher = durability == Durability.ASYNC ? BackgroundWork.every(settings.syncIntervalNanos(), directory, files::forceWritten) : null;
        this.pretoucher = settings.pretouchSetting() && !readOnly
                ? BackgroundWork.every(PRETOUCH_INTERVAL_NANOS, directory, createPretoucher()::execute) : null;
    }

    /** Starts the settings for a queue in {@code directory}. */
    public static MappedQueueBuilder builder(Path directory) {
        return new MappedQueueBuilder(directory);
    }

    private static void prepareDirectory(Path directory, boolean readOnly, FilePermissions permissions) {
        if (Files.isDirectory(directory)) {
            if (!Files.isReadable(directory) || (!readOnly && !Files.isWritable(directory))) {
                throw new QueueException("queue directory " + directory + " is not " + (readOnly ? "readable" : "readable and writable")
                        + " by this process");
            }
            return;
        }
        if (Files.exists(directory)) {
            throw new QueueException("queue path " + directory + " exists but is not a directory");
        }
        if (readOnly) {
            throw new QueueException("queue directory " + directory + " does not exist; a queue opened read-only must "
                    + "already exist");
        }
        try {
            permissions.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create queue directory " + directory + ": " + e, e);
        }
    }

    /**
     * The calling thread's appender, created on first use. Appending from several threads needs nothing more:
     * each gets its own appender and the write lock orders their excerpts.
     *
     * @throws QueueException when the queue was opened read-only
     */
    public ExcerptAppender acquireAppender() {
        ensureOpen();
        requireWritable("appenders");
        StoreAppender appender = appenders.get();
        if (appender == null || appender.isClosed()) {
            appender = new StoreAppender(context);
            resources.add(appender);
            appenders.set(appender);
        }
        return appender;
    }

    /**
     * A pretoucher for this queue, to run from your own scheduler (or let {@link MappedQueueBuilder#pretouch(boolean)}
     * run one). It touches up to 4 MiB (at most half a block) ahead of the write position on each run.
     */
    public Pretoucher createPretoucher() {
        ensureOpen();
        requireWritable("pretouching");
        return new Pretoucher(context, Math.min(4L << 20, blockSize / 2));
    }

    /** A new tailer at the start of the queue. */
    public ExcerptTailer createTailer() {
        ensureOpen();
        StoreTailer tailer = new StoreTailer(context, null, -1);
        resources.add(tailer);
        return tailer;
    }

    /**
     * A named tailer: it starts where the last tailer of that name stopped, in this or an earlier process, and
     * persists its position each time a read context closes. One live tailer may hold a name at a time.
     *
     * @param name 1 to 64 characters: letters, digits, '.', '_' and '-', starting with a letter or digit;
     *             case-sensitive
     * @throws IllegalArgumentException   when the name is not valid
     * @throws NamedTailerInUseException  when another live tailer, in any process, holds the name
     * @throws QueueException             when the queue is read-only
     */
    public ExcerptTailer createTailer(String name) {
        ensureOpen();
        validateTailerName(name);
        requireWritable("named tailers");
        int slot = tableStore.claimSlot(directory.toString(), name, ProcessIdentity.describeCurrentThread());
        try {
            StoreTailer tailer = new StoreTailer(context, name, slot);
            resources.add(tailer);
            return tailer;
        } catch (RuntimeException | Error e) {
            tableStore.releaseSlot(slot);
            throw e;
        }
    }

    private static void validateTailerName(String name) {
        if (!isValidTailerName(name)) {
            throw new IllegalArgumentException("tailer name '" + name + "' is not valid: use 1 to 64 letters, digits, "
                    + "'.', '_' or '-', starting with a letter or digit");
        }
    }

    /** 1 to 64 of [A-Za-z0-9._-], the first a letter or digit: safe as a file name, never a path. */
    private static boolean isValidTailerName(String name) {
        if (name == null || name.isEmpty() || name.length() > 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean alphanumeric = c < 128 && Character.isLetterOrDigit(c);
            if (!alphanumeric && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
                return false;
            }
        }
        return true;
    }

    /** The positions of all named tailers, with who holds each one now. */
    public List<NamedTailerPosition> namedTailers() {
        ensureOpen();
        return tableStore.positions();
    }

    /** The position of one named tailer, or empty when no tailer of that name was ever created. */
    public Optional<NamedTailerPosition> namedTailer(String name) {
        ensureOpen();
        validateTailerName(name);
        return tableStore.position(name);
    }

    /**
     * Sets where a named tailer will resume: the index of the next excerpt it reads, or -1 for the start.
     *
     * @throws NamedTailerInUseException when a live tailer holds the name (move that tailer instead)
     */
    public void setNamedTailerIndex(String name, long nextIndex) {
        ensureOpen();
        validateTailerName(name);
        if (nextIndex < -1) {
            throw new IllegalArgumentException("nextIndex=" + nextIndex + " must be -1 (start) or an index");
        }
        requireWritable("setting a named tailer's position");
        tableStore.setPosition(directory.toString(), name, nextIndex);
    }

    /** Index of the first excerpt, or -1 when the queue is empty. Lists the directory. */
    public long firstIndex() {
        ensureOpen();
        Position scratch = new Position();
        for (long cycle = files.firstCycle(); cycle != CycleFiles.NO_CYCLE; cycle = files.nextCycle(cycle)) {
            if (excerptsIn(cycle, scratch) > 0) {
                return rollCycle().toIndex(cycle, 0);
            }
        }
        return -1;
    }

    /** Index of the last excerpt published, or -1 when the queue is empty. */
    public long lastIndex() {
        ensureOpen();
        Position scratch = new Position();
        for (long cycle = files.lastCycle(); cycle != CycleFiles.NO_CYCLE; cycle = files.previousCycle(cycle)) {
            long count = excerptsIn(cycle, scratch);
            if (count > 0) {
                return rollCycle().toIndex(cycle, count - 1);
            }
        }
        return -1;
    }

    /**
     * Number of excerpts whose index is at least {@code fromIndex} and below {@code toIndex}, across cycles.
     * Indexes need not exist: the count is of the excerpts that do.
     */
    public long countExcerpts(long fromIndex, long toIndex) {
        ensureOpen();
        if (fromIndex < 0 || toIndex < 0) {
            throw new IllegalArgumentException("fromIndex=" + fromIndex + " and toIndex=" + toIndex + " must not be negative");
        }
        if (toIndex <= fromIndex) {
            return 0;
        }
        RollCycle roll = rollCycle();
        long fromCycle = roll.toCycle(fromIndex);
        long toCycle = roll.toCycle(toIndex);
        Position scratch = new Position();
        long total = 0;
        for (long cycle = files.nextCycle(fromCycle - 1); cycle != CycleFiles.NO_CYCLE && cycle <= toCycle;
             cycle = files.nextCycle(cycle)) {
            long count = excerptsIn(cycle, scratch);
            long low = cycle == fromCycle ? roll.toSequenceNumber(fromIndex) : 0;
            long high = cycle == toCycle ? Math.min(count, roll.toSequenceNumber(toIndex)) : count;
            total += Math.max(0, high - low);
        }
        return total;
    }

    private long excerptsIn(long cycle, Position scratch) {
        CycleFile file = files.acquire(cycle);
        if (file == null) {
            return 0;
        }
        try {
            keepNewestMapped(file);
            return file.excerptCount(scratch);
        } finally {
            files.release(file);
        }
    }

    /**
     * Holds on to the newest cycle file, so that monitoring ({@code lastIndex()}, {@code lag()} every poll) does not
     * map and unmap it on each call when no appender or tailer of this process has it open.
     */
    private synchronized void keepNewestMapped(CycleFile file) {
        if (closed || (newest != null && newest.cycle() >= file.cycle())) {
            return;
        }
        CycleFile kept = files.acquire(file.cycle());
        if (newest != null) {
            files.release(newest);
        }
        newest = kept;
    }

    /**
     * Excerpts published through this queue's appenders since it was opened (this process only; discarded and
     * rolled-back excerpts are not counted). Cheap enough to read on every metrics scrape; not a substitute for
     * {@link #lastIndex()} when other processes append too.
     */
    public long appendedExcerpts() {
        return appended.excerpts();
    }

    /** Payload bytes of the excerpts counted by {@link #appendedExcerpts()} (headers and padding not included). */
    public long appendedBytes() {
        return appended.bytes();
    }

    /** The roll cycle in force: the one the queue was created with. */
    public RollCycle rollCycle() {
        return files.rollCycle();
    }

    /** The cycle the queue's clock is in now. */
    public long currentCycle() {
        return rollCycle().cycleAt(context.clock().millis());
    }

    /** The queue's directory. */
    public Path path() {
        return directory;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    /** When appended excerpts reach storage. */
    public Durability durability() {
        return durability;
    }

    /** Block size used for new cycle files. */
    public long blockSize() {
        return blockSize;
    }

    /** Index spacing used for new cycle files. */
    public int indexSpacing() {
        return indexSpacing;
    }

    /**
     * Free space under the queue against its warning thresholds, read from the file system now. Also checked
     * (and a crossing logged once) whenever a cycle file grows.
     */
    public DiskSpace diskSpace() {
        ensureOpen();
        return diskSpace.check();
    }

    /** The cycles that have a file, oldest first. Lists the directory. */
    public List<Long> cycles() {
        ensureOpen();
        return new ArrayList<>(files.cycles());
    }

    /** A readable listing of the whole queue: table store, then every cycle file's header and records. */
    public String dump() {
        StringBuilder out = new StringBuilder();
        dump(out);
        return out.toString();
    }

    /** Writes the listing of {@link #dump()} to {@code out}. */
    public void dump(Appendable out) {
        dump(out, QueueDumper.RAW);
    }

    /** Writes the listing of {@link #dump()} to {@code out}, each excerpt rendered by {@code formatter}. */
    public void dump(Appendable out, ExcerptFormatter formatter) {
        dumpCycle(-1, out, formatter);
    }

    /**
     * Writes the table store and one cycle's file (every cycle when {@code cycle} is negative) to {@code out}, each
     * excerpt rendered by {@code formatter}.
     */
    public void dumpCycle(long cycle, Appendable out, ExcerptFormatter formatter) {
        ensureOpen();
        try {
            new QueueDumper(context, out, formatter).dumpQueue(cycle);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dump of " + directory, e);
        }
    }

    /**
     * Reads every cycle file record by record and checks it against the format: record headers and lengths,
     * end-of-cycle marks, file sizes, index entries. Read-only, and safe while other processes append: the
     * excerpt being written at the end is not reported.
     */
    public QueueVerification verify() {
        ensureOpen();
        return new QueueVerifier(context).verify();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Closes every appender and tailer of this queue, then unmaps its files. Closing twice does nothing. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (AutoCloseable resource : List.copyOf(resources)) {
            try {
                resource.close();
            } catch (Exception e) {
                Log.warning(MappedQueue.class, "failed to close " + resource + " of queue " + directory, e);
            }
        }
        if (pretoucher != null) {
            pretoucher.cancel(false);
        }
        if (flusher != null) {
            flusher.cancel(false);
            files.forceWritten();
        }
        synchronized (this) {
            if (newest != null) {
                files.release(newest);
                newest = null;
            }
        }
        files.close();
        tableStore.release();
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw new QueueException(what + " need a writable queue, but " + directory + " was opened read-only");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new QueueException("queue " + directory + " is closed");
        }
    }

    @Override
    public String toString() {
        return "MappedQueue[" + directory + ", " + rollCycle() + (readOnly ? ", read-only" : "") + "]";
    }
}
