package io.cq.core;


import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Set;

/**
 * Settings for opening a {@link MappedQueue}. Every setting has a default; {@link #build()} checks them all
 * at once, names the setting and its value in any error, and opens the queue with the resulting
 * {@link QueueSettings}. Not thread-safe; one builder opens one queue.
 */
public final class MappedQueueBuilder {
    static {
        // First of all the builder's static set-up: a queue is about to be opened, and the engine, once loaded,
        // gets the JDK's memory-access machinery ready meanwhile, on other cores, before this class's defaults load
        // (docs/notes/performance-journal.md, start-up).
        Engines.queue();
    }

    /** 64 MiB: the largest excerpt is then 16 MiB. */
    public static final long DEFAULT_BLOCK_SIZE = 64L << 20;
    public static final int DEFAULT_INDEX_SPACING = 16;
    /** 512 KiB (or the block size where that is smaller): see {@link #reserveStep(long)}. */
    public static final long DEFAULT_RESERVE_STEP = 512L << 10;
    public static final RollCycle DEFAULT_ROLL_CYCLE = RollCycle.DAILY;
    public static final Duration DEFAULT_WRITE_LOCK_CHECK_INTERVAL = Duration.ofMillis(20);
    public static final Duration DEFAULT_WRITE_LOCK_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofMillis(100);
    public static final long DEFAULT_DISK_SPACE_WARNING_BYTES = 1L << 30;
    public static final double DEFAULT_DISK_SPACE_WARNING_PERCENT = 5.0;
    /** 16 MiB: about 250,000 excerpts of 40 bytes ahead of a stalled drainer. */
    public static final long DEFAULT_ASYNC_BUFFER_SIZE = 16L << 20;
    /** Where async buffers go by default when it exists: shared memory, which no disk stalls. */
    public static final Path DEFAULT_ASYNC_BUFFER_DIRECTORY = Path.of("/dev/shm");

    private final Path directory;
    private RollCycle rollCycle = DEFAULT_ROLL_CYCLE;
    /** Whether the caller chose the roll cycle: only then is a different persisted one worth a warning. */
    private boolean rollCycleChosen;
    private LocalTime rollTime = LocalTime.MIDNIGHT;
    private ZoneId rollZone = ZoneOffset.UTC;
    private boolean rollTimeChosen;
    private boolean doubleBuffer;
    private boolean asyncMode;
    private boolean asyncModeChosen;
    private long asyncBufferSize = DEFAULT_ASYNC_BUFFER_SIZE;
    private Path asyncBufferDirectory;
    private boolean asyncDrain = true;
    private Clock clock = Clock.systemUTC();
    private long blockSize = DEFAULT_BLOCK_SIZE;
    private int indexSpacing = DEFAULT_INDEX_SPACING;
    /** 0 until chosen: then the default, or the block size where that is smaller. */
    private long reserveStep;
    private boolean readOnly;
    private Duration writeLockCheckInterval = DEFAULT_WRITE_LOCK_CHECK_INTERVAL;
    private Duration writeLockTimeout = DEFAULT_WRITE_LOCK_TIMEOUT;
    private Durability durability = Durability.PAGE_CACHE;
    private boolean pretouch;
    private int retainCycles;
    private Duration retainFor = Duration.ZERO;
    private boolean retentionKeepsUnread = true;
    private StoreFileListener storeFileListener = new StoreFileListener() {
    };
    private Duration syncInterval = DEFAULT_SYNC_INTERVAL;
    private Set<PosixFilePermission> filePermissions = PosixFilePermissions.fromString("rw-------");
    private long diskSpaceWarningBytes = DEFAULT_DISK_SPACE_WARNING_BYTES;
    private double diskSpaceWarningPercent = DEFAULT_DISK_SPACE_WARNING_PERCENT;
    private boolean refuseSharedDirectory;
    private boolean requireLocalFilesystem;
    private ExcerptCodecs codecs = ExcerptCodecs.none();
    private boolean codecsChosen;
    private EncryptionKeys encryptionKeys;

    /** Made by {@link MappedQueue#builder}; loading this class started the FFM warm-up. */
    MappedQueueBuilder(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** See {@link MappedQueue#warmUp()}: loading this class starts it, and this makes sure the class is loaded. */
    static void warmUp() {
        Engines.queue();
    }

    /**
     * How the queue is cut into files (default {@link RollCycle#DAILY}). A queue keeps the roll cycle it was
     * created with: opening it with another one logs a warning and uses the persisted one.
     */
    public MappedQueueBuilder rollCycle(RollCycle rollCycle) {
        this.rollCycle = Objects.requireNonNull(rollCycle, "rollCycle");
        this.rollCycleChosen = true;
        return this;
    }

    /** Cycles begin at this time of day, UTC; see {@link #rollTime(LocalTime, ZoneId)}. */
    public MappedQueueBuilder rollTime(LocalTime time) {
        return rollTime(time, ZoneOffset.UTC);
    }

    /**
     * Cycles begin at this time of day in this zone (default midnight UTC): daily and weekly cycles follow the
     * zone's calendar, 23 or 25 hours long across a daylight-saving change; shorter cycles need a zone with a fixed
     * offset ({@link CycleCalendar}). A queue keeps the roll time it was created with, in its table store, so that
     * every process agrees: opening an existing queue with another roll time fails; leaving it unset uses the
     * queue's.
     */
    public MappedQueueBuilder rollTime(LocalTime time, ZoneId zone) {
        this.rollTime = Engines.queue().rollTime(Objects.requireNonNull(time, "time"));
        this.rollZone = Objects.requireNonNull(zone, "zone");
        this.rollTimeChosen = true;
        return this;
    }

    /** The clock that decides the current cycle (default {@link Clock#systemUTC()}); tests inject their own. */
    public MappedQueueBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * The smallest {@link #blockSize(long)} a queue of this roll cycle accepts: a block holds four of the cycle's
     * index blocks (docs/file-format.md, "Mapping"), so cycles with a larger index need larger blocks, from 64 KiB
     * ({@code TEST_SECONDLY}) to 516 KiB ({@code XLARGE_DAILY}). Block sizes are also whole multiples of 4096.
     */
    public static long smallestBlockSize(RollCycle rollCycle) {
        return Engines.queue().smallestBlockSize(Objects.requireNonNull(rollCycle, "rollCycle"));
    }

    /**
     * Bytes mapped at a time and by which cycle files grow (default 64 MiB); a multiple of 4096, at least
     * 64 KiB. The largest excerpt is a quarter of it. Applies to cycle files created from now on.
     */
    public MappedQueueBuilder blockSize(long blockSize) {
        this.blockSize = blockSize;
        return this;
    }

    /**
     * Every how many excerpts the index records a position (default 16; a power of two, so the hot path tests it
     * with a mask). Smaller finds an excerpt with fewer steps; larger indexes more excerpts per cycle. Applies to
     * cycle files created from now on.
     */
    public MappedQueueBuilder indexSpacing(int indexSpacing) {
        this.indexSpacing = indexSpacing;
        return this;
    }

    /**
     * How far ahead of the write position a cycle file's disk blocks are reserved (default 512 KiB, or the block
     * size where that is smaller); a multiple of 4096 from 64 KiB to the block size. A full disk is then an
     * {@link java.io.UncheckedIOException} from an append, never a crash (docs/operations.md, "Disk usage").
     */
    public MappedQueueBuilder reserveStep(long bytes) {
        this.reserveStep = bytes;
        return this;
    }

    /**
     * Double-buffered writes (default off): an appender that finds the write lock taken composes the excerpt in a
     * buffer of its own and copies it in under the lock when the context closes, so slow composers hold the lock
     * only for the copy; {@link WriteContext#index()} while buffering takes the lock then and there
     * (docs/user-guide.md, "Double-buffered writes").
     */
    public MappedQueueBuilder doubleBuffer(boolean doubleBuffer) {
        this.doubleBuffer = doubleBuffer;
        return this;
    }

    /**
     * Async mode (default off; chosen when the queue is created, kept in its table store): appenders add each excerpt
     * to a buffer in shared memory ({@link #asyncBufferDirectory(Path)}) and a drainer thread copies it into the files,
     * so a writer never waits for storage; tailers read buffered excerpts at once. A buffered excerpt survives the
     * death of its writer or drainer, not a machine crash before it is drained (docs/user-guide.md, "Async mode").
     * Opening an existing queue with a different mode fails; leaving it unset uses the queue's.
     */
    public MappedQueueBuilder asyncMode(boolean asyncMode) {
        this.asyncMode = asyncMode;
        this.asyncModeChosen = true;
        return this;
    }

    /**
     * Bytes of records in an async queue's buffer (default 16 MiB); a multiple of 4096 from 64 KiB to 1 GiB. The
     * largest excerpt is a quarter of it. Applies when the queue is created.
     */
    public MappedQueueBuilder asyncBufferSize(long bytes) {
        this.asyncBufferSize = bytes;
        return this;
    }

    /**
     * Where an async queue's buffer file goes (default {@code /dev/shm} where it exists and is writable, else the
     * queue's directory). Every process of the queue must be able to open it: containers sharing a queue must share
     * this directory too. Applies when the queue is created.
     */
    public MappedQueueBuilder asyncBufferDirectory(Path directory) {
        this.asyncBufferDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /**
     * Whether this process takes its turn draining an async queue's buffer into the queue (default true): one process
     * drains at a time, and another takes over when it closes or dies. Turn it off in processes that should never
     * write to the queue's files (a latency-critical writer on a busy machine), as long as some other process drains.
     */
    public MappedQueueBuilder asyncDrain(boolean drain) {
        this.asyncDrain = drain;
        return this;
    }

    /** Open an existing queue for reading only: no appenders, no named tailers, nothing written (default false). */
    public MappedQueueBuilder readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        return this;
    }

    /**
     * How often a writer waiting for the write lock checks whether its holder is alive (default 20 ms): a holder whose
     * process died (by any signal) or whose thread ended loses the lock and its unfinished excerpt, so a dead writer
     * stops others for about this long; a live holder is waited for (docs/file-format.md, "Locks and liveness").
     */
    public MappedQueueBuilder writeLockCheckInterval(Duration interval) {
        this.writeLockCheckInterval = Objects.requireNonNull(interval, "interval");
        return this;
    }

    /**
     * How long an appender waits for the write lock while a live appender holds it (default 10 s), before
     * {@link io.cq.core.WriteLockTimeoutException} names the holder. A dead holder's lock is taken over after
     * {@link #writeLockCheckInterval(Duration)}, so this must be longer than that; a live holder is never taken
     * over. A wait also ends when the thread is interrupted ({@link io.cq.core.QueueInterruptedException}).
     */
    public MappedQueueBuilder writeLockTimeout(Duration timeout) {
        this.writeLockTimeout = Objects.requireNonNull(timeout, "timeout");
        return this;
    }

    /** When appended excerpts are forced to storage (default {@link Durability#PAGE_CACHE}): see {@link Durability}. */
    public MappedQueueBuilder durability(Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        return this;
    }

    /** How often {@link Durability#ASYNC} forces written pages to storage (default 100 ms). */
    public MappedQueueBuilder syncInterval(Duration interval) {
        this.syncInterval = Objects.requireNonNull(interval, "interval");
        return this;
    }

    /**
     * Keep only the files of the last {@code cycles} cycles, the current one included (default 0: keep all).
     * Older files are deleted when an appender starts a new cycle, except those a named tailer has not finished
     * reading (see {@link #retentionKeepsUnreadByNamedTailers(boolean)}).
     */
    public MappedQueueBuilder retainCycles(int cycles) {
        this.retainCycles = cycles;
        return this;
    }

    /** Keep only the files of cycles that ended less than {@code duration} ago (default zero: keep all). */
    public MappedQueueBuilder retainFor(Duration duration) {
        this.retainFor = Objects.requireNonNull(duration, "duration");
        return this;
    }

    /**
     * Whether retention keeps files holding excerpts that a named tailer has not read yet (default true): move an
     * idle named tailer on with {@link MappedQueue#setNamedTailerIndex}, or turn this off to delete anyway.
     */
    public MappedQueueBuilder retentionKeepsUnreadByNamedTailers(boolean keep) {
        this.retentionKeepsUnread = keep;
        return this;
    }

    /** Told when cycle files are opened, released and deleted by retention (default: nobody). */
    public MappedQueueBuilder storeFileListener(StoreFileListener listener) {
        this.storeFileListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Run a {@link Pretoucher} for this queue on a background thread every 20 ms (default false): appends then
     * rarely meet a page fault or a file creation. Uses a little of another core.
     */
    public MappedQueueBuilder pretouch(boolean pretouch) {
        this.pretouch = pretouch;
        return this;
    }

    /**
     * Permissions of the files cq creates (default {@code rw-------}, owner only); directories get the same plus
     * search permission wherever read is granted. Applied after creation, whatever the process's umask.
     */
    public MappedQueueBuilder filePermissions(Set<PosixFilePermission> permissions) {
        this.filePermissions = Set.copyOf(Objects.requireNonNull(permissions, "permissions"));
        return this;
    }

    /**
     * Warn (once per crossing, not per write) when free space under the queue falls below this many bytes or this
     * percentage of the file system, whichever is larger (defaults 1 GiB and 5 %); see
     * {@link MappedQueue#diskSpace()}. Zero turns a threshold off.
     */
    public MappedQueueBuilder diskSpaceWarning(long minFreeBytes, double minFreePercent) {
        this.diskSpaceWarningBytes = minFreeBytes;
        this.diskSpaceWarningPercent = minFreePercent;
        return this;
    }

    /** Refuse a directory every user may write to, who could replace its files (default false: a warning). */
    public MappedQueueBuilder refuseSharedDirectory(boolean refuse) {
        this.refuseSharedDirectory = refuse;
        return this;
    }

    /** Refuse a directory on a network or FUSE file system (default false: a warning); see {@link QueueFilesystem}. */
    public MappedQueueBuilder requireLocalFilesystem(boolean require) {
        this.requireLocalFilesystem = require;
        return this;
    }

    /**
     * What the queue does to each excerpt: checksums, compression, encryption (docs/codecs.md). Chosen when a queue is
     * created and recorded in its files; unset, a queue opens with the codecs it was created with (a new one with
     * none), and a queue created with others is refused ({@link io.cq.core.CodecsMismatchException}).
     */
    public MappedQueueBuilder codecs(ExcerptCodecs codecs) {
        this.codecs = Objects.requireNonNull(codecs, "codecs");
        this.codecsChosen = true;
        return this;
    }

    /**
     * The keys of an encrypted queue, for opening it without restating its codecs. Required to write to it; a
     * read-only queue opens without them, and reading an encrypted excerpt then fails naming its key id.
     */
    public MappedQueueBuilder encryptionKeys(EncryptionKeys keys) {
        this.encryptionKeys = Objects.requireNonNull(keys, "keys");
        return this;
    }

    /**
     * Checks the settings and opens the queue, creating its directory and table store when they do not exist
     * (unless read-only).
     *
     * @throws IllegalArgumentException for a setting out of range, naming it and its value
     * @throws QueueException           when the directory cannot be used as a queue, saying why
     */
    public MappedQueue build() {
        return open(false);
    }

    /**
     * Repairs the queue in this directory as {@link MappedQueue#repair()} does, and also a table store whose newest
     * cycle names a file that is gone, which no writer opens: its cycle range is set to the cycle files there are
     * ({@link QueueRepair#cycleRangeReset()}). Opens the queue for writing, with no pretoucher and no async drain,
     * repairs it under the write lock, and closes it. Stop the queue's readers and writers first (docs/operations.md,
     * "Repairing"); the settings that matter are the ones a writer would give (file permissions, say).
     *
     * @throws IllegalStateException when read-only was set: a repair writes
     * @throws QueueException        while another process has the queue open for writing
     */
    public QueueRepair repair() {
        if (readOnly) {
            throw new IllegalStateException("a repair writes to the queue: do not set readOnly");
        }
        try (MappedQueue queue = open(true)) {
            return queue.repair();
        }
    }

    private MappedQueue open(boolean repairing) {
        long step = reserveStep == 0 ? Math.min(DEFAULT_RESERVE_STEP, blockSize) : reserveStep;
        Path bufferDirectory = asyncBufferDirectory != null ? asyncBufferDirectory.toAbsolutePath().normalize()
                : Files.isDirectory(DEFAULT_ASYNC_BUFFER_DIRECTORY) && Files.isWritable(DEFAULT_ASYNC_BUFFER_DIRECTORY)
                ? DEFAULT_ASYNC_BUFFER_DIRECTORY : directory.toAbsolutePath().normalize();
        // A repair opens the queue only to mend it: nothing runs in the background meanwhile.
        QueueSettings settings = new QueueSettings(directory, rollCycle, clock, blockSize, indexSpacing, step, readOnly,
                writeLockCheckInterval, writeLockTimeout, durability, syncInterval, pretouch && !repairing,
                retainCycles, retainFor, retentionKeepsUnread, storeFileListener, filePermissions,
                diskSpaceWarningBytes, diskSpaceWarningPercent, refuseSharedDirectory, requireLocalFilesystem, rollTime,
                rollZone, doubleBuffer, asyncMode, asyncBufferSize, bufferDirectory, asyncDrain && !repairing, codecs,
                encryptionKeys != null ? encryptionKeys : codecs.keys());
        return Engines.queue().open(settings, rollCycleChosen, rollTimeChosen, asyncModeChosen, codecsChosen,
                repairing);
    }
}
