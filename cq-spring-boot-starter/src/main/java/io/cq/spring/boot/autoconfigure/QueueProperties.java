package io.cq.spring.boot.autoconfigure;

import io.cq.core.Durability;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.RollCycle;
import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;

/**
 * Settings of one queue, under {@code cq.queues.<name>}; each maps to a {@link MappedQueueBuilder} setting and
 * has the same default. Listed in {@code docs/spring-boot.md} (the configuration processor does not describe
 * the values of a map).
 */
public class QueueProperties {

    /** Directory of the queue; default: the base path joined with the queue's name. */
    private Path path;

    /**
     * How the queue is cut into files. Unset: the roll cycle of the existing queue, or DAILY for a new one. Set
     * on an existing queue, it must be the one the queue was created with.
     */
    private RollCycle rollCycle;

    /**
     * Time of day the queue's cycles begin at, e.g. 17:00 (with roll-time-zone). Daily and weekly cycles then follow
     * the zone's calendar, 23 or 25 hours long across a daylight-saving change. Unset: the existing queue's, or
     * midnight for a new one. Set on an existing queue, it must be the one the queue was created with.
     */
    private @Nullable LocalTime rollTime;

    /**
     * Time zone of roll-time, e.g. America/New_York. Unset: UTC. Cycles shorter than a day need a zone with a fixed
     * offset.
     */
    private @Nullable ZoneId rollTimeZone;

    /**
     * Bytes mapped at a time; a multiple of 4 KiB, at least MappedQueueBuilder.smallestBlockSize(rollCycle) (64
     * KiB to 516 KiB). The largest excerpt is a quarter of it.
     */
    private DataSize blockSize = DataSize.ofBytes(MappedQueueBuilder.DEFAULT_BLOCK_SIZE);

    /**
     * How far ahead of the writer a cycle file's disk blocks are reserved; a multiple of 4 KiB from 64 KiB to the
     * block size. Unset: 512 KiB, or the block size where that is smaller. A full disk is then an error from an
     * append, never a crash; finished cycles keep only what they hold.
     */
    private DataSize reserveStep;

    /** Every how many excerpts the index records a position; a power of two. */
    private int indexSpacing = MappedQueueBuilder.DEFAULT_INDEX_SPACING;

    /** When appended excerpts are forced to storage: PAGE_CACHE, ASYNC (every sync-interval) or SYNC. */
    private Durability durability = Durability.PAGE_CACHE;

    /** How often ASYNC durability forces written pages to storage. */
    private Duration syncInterval = MappedQueueBuilder.DEFAULT_SYNC_INTERVAL;

    /** Open an existing queue for reading only: no appends, no listeners (they need named tailers). */
    private boolean readOnly;

    /** Keep only the files of the last this many cycles, the current one included; 0 keeps all. */
    private int retainCycles;

    /** Keep only the files of cycles that ended less than this long ago; 0 keeps all. */
    private Duration retainFor = Duration.ZERO;

    /** Whether retention keeps files holding excerpts that a named tailer (a listener) has not read yet. */
    private boolean retentionKeepsUnread = true;

    /** Touch pages ahead of the writer on a background thread, so appends rarely meet a page fault. */
    private boolean pretouch;

    /** Warn, and report the health DOWN, when free disk space under the queue falls below this. */
    private DataSize diskSpaceWarningSize = DataSize.ofBytes(MappedQueueBuilder.DEFAULT_DISK_SPACE_WARNING_BYTES);

    /** Warn, and report the health DOWN, when free disk space falls below this percentage of the file system. */
    private double diskSpaceWarningPercent = MappedQueueBuilder.DEFAULT_DISK_SPACE_WARNING_PERCENT;

    /** How long an appender waits for the write lock before it checks whether its holder is still alive. */
    private Duration writeLockCheckInterval = MappedQueueBuilder.DEFAULT_WRITE_LOCK_CHECK_INTERVAL;

    /**
     * How long an appender waits for the write lock while a live appender holds it before the append fails naming
     * the holder; longer than write-lock-check-interval, after which a dead holder's lock is taken over.
     */
    private Duration writeLockTimeout = MappedQueueBuilder.DEFAULT_WRITE_LOCK_TIMEOUT;

    /** Refuse to open the queue when every user may write to its directory (else a warning is logged). */
    private boolean refuseSharedDirectory;

    /**
     * Refuse to open the queue when its directory is on a network (NFS, SMB/CIFS, ...) or FUSE file system (else a
     * warning is logged).
     */
    private boolean requireLocalFilesystem;

    /**
     * Whether a writer that finds the write lock taken composes its excerpt in a buffer of its own and copies it in
     * once it holds the lock, so writers that encode messages do not wait for each other while encoding.
     */
    private boolean doubleBuffer;

    /**
     * Async mode: writers add to a buffer in shared memory that is drained into the queue in the background, so no
     * storage stall reaches them. Chosen when the queue is created and kept with it; unset, the queue's own mode.
     */
    private Boolean asyncMode;

    /** Size of an async queue's buffer (a multiple of 4 KB from 64 KB to 1 GB); the largest excerpt is a quarter. */
    private DataSize asyncBufferSize = DataSize.ofBytes(MappedQueueBuilder.DEFAULT_ASYNC_BUFFER_SIZE);

    /** Where an async queue's buffer file goes; unset, /dev/shm where it exists, else the queue's directory. */
    private Path asyncBufferDirectory;

    /** Whether this application takes its turn draining an async queue's buffer into the queue. */
    private boolean asyncDrain = true;

    /** Permissions of the files the queue creates, e.g. "rw-r-----"; the owner must read and write. */
    private String filePermissions = "rw-------";

    /**
     * A CRC-32C checksum with each excerpt, checked on every read. Chosen when the queue is created, like compression
     * and encryption: unset (with compression unset too), the queue's own codecs; set, they must be the existing
     * queue's.
     */
    private @Nullable Boolean checksums;

    /** Compression of each excerpt from compression-threshold bytes: NONE, LZ4 or DEFLATE. Unset: the queue's own. */
    private @Nullable Compression compression;

    /** Excerpts shorter than this are stored uncompressed; from 1 byte to 16MB. */
    private DataSize compressionThreshold = DataSize.ofBytes(ExcerptCodecs.DEFAULT_COMPRESSION_THRESHOLD);

    /** AES-GCM encryption at rest with keys from a Java key store. */
    private final QueueEncryptionProperties encryption = new QueueEncryptionProperties();

    public Path getPath() {
        return path;
    }

    public void setPath(Path path) {
        this.path = path;
    }

    public @Nullable LocalTime getRollTime() {
        return rollTime;
    }

    public void setRollTime(@Nullable LocalTime rollTime) {
        this.rollTime = rollTime;
    }

    public @Nullable ZoneId getRollTimeZone() {
        return rollTimeZone;
    }

    public void setRollTimeZone(@Nullable ZoneId rollTimeZone) {
        this.rollTimeZone = rollTimeZone;
    }

    public RollCycle getRollCycle() {
        return rollCycle;
    }

    public void setRollCycle(RollCycle rollCycle) {
        this.rollCycle = rollCycle;
    }

    public DataSize getBlockSize() {
        return blockSize;
    }

    public void setBlockSize(DataSize blockSize) {
        this.blockSize = blockSize;
    }

    public DataSize getReserveStep() {
        return reserveStep;
    }

    public void setReserveStep(DataSize reserveStep) {
        this.reserveStep = reserveStep;
    }

    public int getIndexSpacing() {
        return indexSpacing;
    }

    public void setIndexSpacing(int indexSpacing) {
        this.indexSpacing = indexSpacing;
    }

    public Durability getDurability() {
        return durability;
    }

    public void setDurability(Durability durability) {
        this.durability = durability;
    }

    public Duration getSyncInterval() {
        return syncInterval;
    }

    public void setSyncInterval(Duration syncInterval) {
        this.syncInterval = syncInterval;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    public int getRetainCycles() {
        return retainCycles;
    }

    public void setRetainCycles(int retainCycles) {
        this.retainCycles = retainCycles;
    }

    public Duration getRetainFor() {
        return retainFor;
    }

    public void setRetainFor(Duration retainFor) {
        this.retainFor = retainFor;
    }

    public boolean isRetentionKeepsUnread() {
        return retentionKeepsUnread;
    }

    public void setRetentionKeepsUnread(boolean retentionKeepsUnread) {
        this.retentionKeepsUnread = retentionKeepsUnread;
    }

    public boolean isPretouch() {
        return pretouch;
    }

    public void setPretouch(boolean pretouch) {
        this.pretouch = pretouch;
    }

    public DataSize getDiskSpaceWarningSize() {
        return diskSpaceWarningSize;
    }

    public void setDiskSpaceWarningSize(DataSize diskSpaceWarningSize) {
        this.diskSpaceWarningSize = diskSpaceWarningSize;
    }

    public double getDiskSpaceWarningPercent() {
        return diskSpaceWarningPercent;
    }

    public void setDiskSpaceWarningPercent(double diskSpaceWarningPercent) {
        this.diskSpaceWarningPercent = diskSpaceWarningPercent;
    }

    public Duration getWriteLockCheckInterval() {
        return writeLockCheckInterval;
    }

    public void setWriteLockCheckInterval(Duration writeLockCheckInterval) {
        this.writeLockCheckInterval = writeLockCheckInterval;
    }

    public Duration getWriteLockTimeout() {
        return writeLockTimeout;
    }

    public void setWriteLockTimeout(Duration writeLockTimeout) {
        this.writeLockTimeout = writeLockTimeout;
    }

    public boolean isRequireLocalFilesystem() {
        return requireLocalFilesystem;
    }

    public void setRequireLocalFilesystem(boolean requireLocalFilesystem) {
        this.requireLocalFilesystem = requireLocalFilesystem;
    }

    public Boolean getAsyncMode() {
        return asyncMode;
    }

    public void setAsyncMode(Boolean asyncMode) {
        this.asyncMode = asyncMode;
    }

    public DataSize getAsyncBufferSize() {
        return asyncBufferSize;
    }

    public void setAsyncBufferSize(DataSize asyncBufferSize) {
        this.asyncBufferSize = asyncBufferSize;
    }

    public Path getAsyncBufferDirectory() {
        return asyncBufferDirectory;
    }

    public void setAsyncBufferDirectory(Path asyncBufferDirectory) {
        this.asyncBufferDirectory = asyncBufferDirectory;
    }

    public boolean isAsyncDrain() {
        return asyncDrain;
    }

    public void setAsyncDrain(boolean asyncDrain) {
        this.asyncDrain = asyncDrain;
    }

    public boolean isDoubleBuffer() {
        return doubleBuffer;
    }

    public void setDoubleBuffer(boolean doubleBuffer) {
        this.doubleBuffer = doubleBuffer;
    }

    public boolean isRefuseSharedDirectory() {
        return refuseSharedDirectory;
    }

    public void setRefuseSharedDirectory(boolean refuseSharedDirectory) {
        this.refuseSharedDirectory = refuseSharedDirectory;
    }

    public String getFilePermissions() {
        return filePermissions;
    }

    public void setFilePermissions(String filePermissions) {
        this.filePermissions = filePermissions;
    }

    public @Nullable Boolean getChecksums() {
        return checksums;
    }

    public void setChecksums(@Nullable Boolean checksums) {
        this.checksums = checksums;
    }

    public @Nullable Compression getCompression() {
        return compression;
    }

    public void setCompression(@Nullable Compression compression) {
        this.compression = compression;
    }

    public DataSize getCompressionThreshold() {
        return compressionThreshold;
    }

    public void setCompressionThreshold(DataSize compressionThreshold) {
        this.compressionThreshold = compressionThreshold;
    }

    public QueueEncryptionProperties getEncryption() {
        return encryption;
    }
}
