package io.cq.core.internal.queue;

import io.cq.core.DiskSpace;
import io.cq.core.Durability;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptFormatter;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.NamedTailerPosition;
import io.cq.core.Pretoucher;
import io.cq.core.QueueDiskUsage;
import io.cq.core.QueueException;
import io.cq.core.QueueFilesystem;
import io.cq.core.QueueRepair;
import io.cq.core.QueueResources;
import io.cq.core.QueueSettings;
import io.cq.core.QueueVerification;
import io.cq.core.RollCycle;
import io.cq.core.WriterProcess;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.inspect.DiskUsageReader;
import io.cq.core.internal.inspect.QueueDumper;
import io.cq.core.internal.inspect.QueueVerifier;
import io.cq.core.internal.lock.WriteLockWord;
import io.cq.core.internal.named.NamedTailerSlots;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.DiskSpaceMonitor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.system.ProcessIdentity;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * The {@link MappedQueue}: opens the table store and the cycle files of a directory, hands out appenders and
 * tailers over them, and closes them all with itself (docs/architecture.md).
 */
public final class StoreQueue implements MappedQueue {

    private final QueueSettings settings;
    private final Path directory;
    private final boolean readOnly;
    private final long blockSize;
    private final TableStore tableStore;
    private final NamedTailerSlots namedTailers;
    private final DiskSpaceMonitor diskSpace;
    private final ScheduledFuture<?> flusher;
    private final ScheduledFuture<?> pretoucher;
    private final CycleClock cycleClock;
    private static final long PRETOUCH_INTERVAL_NANOS = 20_000_000;
    private final CycleFiles files;
    private final QueueContext context;
    private final Set<AutoCloseable> resources = ConcurrentHashMap.newKeySet();
    private final AppendCounter appended = new AppendCounter();
    /** Each thread's convenience appender: made on the first {@link #acquireAppender()}, off a first excerpt's path. */
    private volatile ThreadAppenders threadAppenders;
    private volatile boolean closed;
    private final QueueExtent extent;
    private final QueueFilesystem filesystem;
    /** An async queue's buffer and drainer (null otherwise, or for a reader that found none). */
    private final AsyncFront front;

    /**
     * Opens the queue.
     *
     * @param rollCycleChosen whether the caller chose the roll cycle: only then is a different persisted one worth
     *                        a warning
     * @param rollTimeChosen  whether the caller chose the roll time: a different persisted one is then refused
     * @param asyncChosen     whether the caller chose async mode on or off: a queue of the other mode is then refused
     * @param codecsChosen    whether the caller chose codecs: a queue created with others is then refused
     * @param repairing       opened only to be repaired: a cycle range a writer would refuse is left for
     *                        {@link #repair()} to reset, instead of refusing to open
     * @param async           opens an async queue's front (the async engine, above this package)
     */
    public StoreQueue(QueueSettings requested, boolean rollCycleChosen, boolean rollTimeChosen, boolean asyncChosen,
                      boolean codecsChosen, boolean repairing, AsyncFront.Opener async) {
        this.directory = requested.directory();
        this.readOnly = requested.readOnly();
        this.blockSize = requested.blockSize();
        QueueOpening opened = new QueueOpening(this, requested, rollCycleChosen, rollTimeChosen, asyncChosen,
                codecsChosen, repairing, resources, appended, async);
        this.diskSpace = opened.diskSpace;
        this.filesystem = opened.filesystem;
        this.tableStore = opened.tableStore;
        this.namedTailers = opened.namedTailers;
        this.settings = opened.settings;
        this.files = opened.files;
        this.extent = opened.extent;
        this.cycleClock = opened.cycleClock;
        this.context = opened.context;
        this.front = opened.front;
        this.flusher = settings.durability() == Durability.ASYNC
                ? BackgroundWork.every(settings.syncInterval().toNanos(), directory, files::forceWritten) : null;
        this.pretoucher = settings.pretouch() && !readOnly
                ? BackgroundWork.every(PRETOUCH_INTERVAL_NANOS, directory, createPretoucher()::execute) : null;
    }

    @Override
    public ExcerptAppender createAppender() {
        ensureOpen();
        requireWritable("appenders");
        return newTrackedAppender();
    }

    private ExcerptAppender newAppender() {
        return front != null ? front.newAppender() : StoreAppender.of(context);
    }

    @Override
    public ExcerptAppender acquireAppender() {
        ensureOpen();
        requireWritable("appenders");
        ThreadAppenders appenders = threadAppenders;
        return (appenders != null ? appenders : startThreadAppenders()).acquire();
    }

    /** Under the queue's monitor, as its close is: none is made once the queue is closed. */
    private synchronized ThreadAppenders startThreadAppenders() {
        ensureOpen();
        if (threadAppenders == null) {
            threadAppenders = new ThreadAppenders(directory, this::newTrackedAppender);
        }
        return threadAppenders;
    }

    private ExcerptAppender newTrackedAppender() {
        ExcerptAppender appender = newAppender();
        resources.add(appender);
        return appender;
    }

    @Override
    public Pretoucher createPretoucher() {
        ensureOpen();
        requireWritable("pretouching");
        return new StorePretoucher(context, Math.min(4L << 20, blockSize / 2));
    }

    @Override
    public ExcerptTailer createTailer() {
        ensureOpen();
        return track(new StoreTailer(context, null, -1));
    }

    /** An async queue's tailers read its buffer beyond the queue's end. */
    private ExcerptTailer track(StoreTailer tailer) {
        ExcerptTailer tracked = front != null ? front.newTailer(tailer) : tailer;
        resources.add(tracked);
        return tracked;
    }

    @Override
    public ExcerptTailer createTailer(String name) {
        ensureOpen();
        NamedTailerSlots.requireValidName(name);
        requireWritable("named tailers");
        int slot = namedTailers.claim(name, ProcessIdentity.describeCurrentThread());
        try {
            return track(new StoreTailer(context, name, slot));
        } catch (RuntimeException | Error e) {
            namedTailers.release(slot);
            throw e;
        }
    }

    @Override
    public List<NamedTailerPosition> namedTailers() {
        ensureOpen();
        return namedTailers.positions();
    }

    @Override
    public Optional<NamedTailerPosition> namedTailer(String name) {
        ensureOpen();
        NamedTailerSlots.requireValidName(name);
        return namedTailers.position(name);
    }

    @Override
    public void setNamedTailerIndex(String name, long nextIndex) {
        ensureOpen();
        NamedTailerSlots.requireValidName(name);
        if (nextIndex < -1) {
            throw new IllegalArgumentException("nextIndex=" + nextIndex + " must be -1 (start) or an index");
        }
        requireWritable("setting a named tailer's position");
        namedTailers.setPosition(name, nextIndex);
    }

    @Override
    public long firstIndex() {
        ensureOpen();
        return extent.firstIndex();
    }

    @Override
    public long lastIndex() {
        ensureOpen();
        return extent.lastIndex();
    }

    @Override
    public long countExcerpts(long fromIndex, long toIndex) {
        ensureOpen();
        if (fromIndex < 0 || toIndex < 0) {
            throw new IllegalArgumentException("fromIndex=" + fromIndex + " and toIndex=" + toIndex
                    + " must not be negative");
        }
        return toIndex <= fromIndex ? 0 : extent.countExcerpts(fromIndex, toIndex);
    }

    @Override
    public long appendedExcerpts() {
        return appended.excerpts();
    }

    @Override
    public long appendedBytes() {
        return appended.bytes();
    }

    @Override
    public long asyncBufferedBytes() {
        ensureOpen();
        return front == null ? 0 : front.buffered();
    }

    @Override
    public QueueSettings settings() {
        return settings;
    }

    @Override
    public RollCycle rollCycle() {
        return files.rollCycle();
    }

    @Override
    public QueueFilesystem filesystem() {
        return filesystem;
    }

    /** For tests in this package: what appenders of this queue share. */
    QueueContext context() {
        return context;
    }

    @Override
    public DiskSpace diskSpace() {
        ensureOpen();
        return diskSpace.check();
    }

    @Override
    public QueueDiskUsage diskUsage() {
        ensureOpen();
        return DiskUsageReader.measure(files);
    }

    @Override
    public QueueRepair repair() {
        ensureOpen();
        requireWritable("repairing");
        return new WriteLockedMaintenance(context).repair();
    }

    @Override
    public QueueResources resources() {
        ensureOpen();
        int appenders = 0;
        int tailers = 0;
        for (AutoCloseable resource : resources) {
            if (resource instanceof ExcerptAppender) {
                appenders++;
            } else if (resource instanceof ExcerptTailer) {
                tailers++;
            }
        }
        return new QueueResources(appenders, tailers, files.openFileCount(), files.mappedBytes());
    }

    @Override
    public List<WriterProcess> writerProcesses() {
        ensureOpen();
        return tableStore.processSlots().writers(new WriteLockWord(tableStore).ownerSlot());
    }

    @Override
    public List<Long> cycles() {
        ensureOpen();
        return new ArrayList<>(files.cycles());
    }

    @Override
    public void dumpCycle(long cycle, Appendable out, ExcerptFormatter formatter) {
        ensureOpen();
        try {
            new QueueDumper(files, out, formatter, context.codecs()).dumpQueue(cycle);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dump of " + directory, e);
        }
    }

    @Override
    public QueueVerification verify() {
        ensureOpen();
        return new QueueVerifier(files, context.codecs()).verify();
    }

    @Override
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
        if (front != null) {
            front.release();
        }
        if (pretoucher != null) {
            pretoucher.cancel(false);
        }
        cycleClock.close();
        ThreadAppenders appenders;
        synchronized (this) {
            appenders = threadAppenders;
        }
        if (appenders != null) {
            appenders.close();
        }
        if (!readOnly) {
            new WriteLockedMaintenance(context).shrinkNewestIfLastWriter();
        }
        if (flusher != null) {
            flusher.cancel(false);
            files.forceWritten();
        }
        extent.close();
        files.close();
        tableStore.release(!readOnly);
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw new QueueException(what + " need a writable queue, but " + directory + " was opened read-only");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw Failures.closed("queue " + directory + " is closed");
        }
    }

    /** This queue's async buffer, or null when it is not in async mode: for tests of the drain protocol. */
    /** An async queue's front, for tests of the drain protocol; null for other queues. */
    public AsyncFront asyncFront() {
        return front;
    }

    @Override
    public String toString() {
        return "MappedQueue[" + directory + ", " + rollCycle() + (readOnly ? ", read-only" : "") + "]";
    }
}
