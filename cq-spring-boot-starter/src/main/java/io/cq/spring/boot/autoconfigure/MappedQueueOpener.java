package io.cq.spring.boot.autoconfigure;

import io.cq.core.AsyncModeMismatchException;
import io.cq.core.CodecsMismatchException;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.MissingKeyException;
import io.cq.core.QueueException;
import io.cq.core.RollCycle;
import io.cq.core.RollTimeMismatchException;
import io.cq.spring.support.InvalidQueuePropertyException;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Opens the queue configured under {@code cq.queues.<name>}: checks each property first, so that a wrong value
 * stops start-up with an {@link InvalidQueuePropertyException} that names it, then applies the properties and
 * the {@link MappedQueueBuilderCustomizer}s to a {@link MappedQueueBuilder}. Codecs and keys are the
 * {@code QueueCodecsConfigurer}'s, whose failures are {@link io.cq.spring.support.QueueCodecsException}s.
 */
public final class MappedQueueOpener {
    private static final long PAGE = 4096;
    private static final long MIN_RESERVE_STEP = 64 * 1024;

    private final CqProperties properties;
    private final List<MappedQueueBuilderCustomizer> customizers;

    public MappedQueueOpener(CqProperties properties, List<MappedQueueBuilderCustomizer> customizers) {
        this.properties = properties;
        this.customizers = List.copyOf(customizers);
    }

    /**
     * Opens the queue of that name.
     *
     * @throws InvalidQueuePropertyException when a property of the queue is wrong, or the queue is missing
     */
    public MappedQueue open(String name) {
        QueueProperties queue = properties.getQueues().get(name);
        if (queue == null) {
            throw new InvalidQueuePropertyException("cq.queues." + name, null, "no such queue is configured",
                    "Add at least one property under cq.queues." + name + ", e.g. cq.queues." + name + ".path.", null);
        }
        String prefix = "cq.queues." + name + ".";
        Path path = properties.pathOf(name, queue);
        checkPath(prefix, path, queue.isReadOnly());
        checkNotShared(name, path, queue.isReadOnly());
        checkSettings(prefix, queue);
        QueueCodecsConfigurer codecs = QueueCodecsConfigurer.of(name, path, queue);
        MappedQueueBuilder builder = MappedQueue.builder(path)
                .blockSize(queue.getBlockSize().toBytes())
                .indexSpacing(queue.getIndexSpacing())
                .durability(queue.getDurability())
                .syncInterval(queue.getSyncInterval())
                .readOnly(queue.isReadOnly())
                .retainCycles(queue.getRetainCycles())
                .retainFor(queue.getRetainFor())
                .retentionKeepsUnreadByNamedTailers(queue.isRetentionKeepsUnread())
                .pretouch(queue.isPretouch())
                .diskSpaceWarning(queue.getDiskSpaceWarningSize().toBytes(), queue.getDiskSpaceWarningPercent())
                .writeLockCheckInterval(queue.getWriteLockCheckInterval())
                .writeLockTimeout(queue.getWriteLockTimeout())
                .refuseSharedDirectory(queue.isRefuseSharedDirectory())
                .requireLocalFilesystem(queue.isRequireLocalFilesystem())
                .doubleBuffer(queue.isDoubleBuffer())
                .asyncBufferSize(queue.getAsyncBufferSize().toBytes())
                .asyncDrain(queue.isAsyncDrain())
                .filePermissions(PosixFilePermissions.fromString(queue.getFilePermissions()));
        if (queue.getReserveStep() != null) {
            builder.reserveStep(queue.getReserveStep().toBytes());
        }
        if (queue.getRollCycle() != null) {
            builder.rollCycle(queue.getRollCycle());
        }
        if (queue.getAsyncMode() != null) {
            builder.asyncMode(queue.getAsyncMode());
        }
        if (queue.getAsyncBufferDirectory() != null) {
            builder.asyncBufferDirectory(queue.getAsyncBufferDirectory());
        }
        if (queue.getRollTime() != null || queue.getRollTimeZone() != null) {
            builder.rollTime(Objects.requireNonNullElse(queue.getRollTime(), LocalTime.MIDNIGHT),
                    Objects.requireNonNullElse(queue.getRollTimeZone(), ZoneOffset.UTC));
        }
        codecs.applyTo(builder);
        customizers.forEach(customizer -> customizer.customize(name, builder));
        MappedQueue opened;
        try {
            opened = build(prefix, path, queue, builder, codecs);
        } catch (InvalidQueuePropertyException e) {
            if (e.getCause() instanceof AsyncModeMismatchException mismatch) {
                throw new InvalidQueuePropertyException(prefix + "async-mode", queue.getAsyncMode(),
                        "the queue in " + path + " was created " + (mismatch.asyncModeInForce() ? "in" : "without")
                                + " async mode, kept so that every process writes to it the same way",
                        "Set " + prefix + "async-mode=" + mismatch.asyncModeInForce() + " or remove the property; to "
                                + "start a new queue in the other mode, point " + prefix + "path at another "
                                + "directory.", mismatch);
            }
            if (e.getCause() instanceof RollTimeMismatchException mismatch) {
                throw new InvalidQueuePropertyException(prefix + "roll-time",
                        Objects.requireNonNullElse(queue.getRollTime(), LocalTime.MIDNIGHT) + " "
                        + Objects.requireNonNullElse(queue.getRollTimeZone(), ZoneOffset.UTC).getId(),
                        "the queue in " + path + " rolls at " + mismatch.inForce().rollTime() + " "
                                + mismatch.inForce().zone().getId() + ", kept since it was created so that every "
                                + "process cuts the same cycles",
                        "Set " + prefix + "roll-time=" + mismatch.inForce().rollTime() + " and " + prefix
                                + "roll-time-zone=" + mismatch.inForce().zone().getId()
                                + ", or remove both to use the queue's; to start a new queue with another roll time, "
                                + "point " + prefix + "path at another directory.", mismatch);
            }
            throw e;
        }
        if (queue.getRollCycle() != null && opened.rollCycle() != queue.getRollCycle()) {
            opened.close();
            throw new InvalidQueuePropertyException(prefix + "roll-cycle", queue.getRollCycle(),
                    "the queue in " + path + " was created with roll cycle " + opened.rollCycle()
                            + ", and a queue keeps its roll cycle for life",
                    "Set " + prefix + "roll-cycle=" + opened.rollCycle()
                    + " or remove the property to use the existing "
                            + "queue; to start a new queue with " + queue.getRollCycle() + ", point " + prefix
                            + "path at another directory.", null);
        }
        return opened;
    }

    private static MappedQueue build(String prefix, Path path, QueueProperties queue, MappedQueueBuilder builder,
                                     QueueCodecsConfigurer codecs) {
        try {
            return builder.build();
        } catch (MissingKeyException | CodecsMismatchException e) {
            throw codecs.explain(e);
        } catch (QueueException e) {
            throw new InvalidQueuePropertyException(prefix + "path", path, e.getMessage(),
                    "Point " + prefix + "path (or cq.base-path) at a directory this process can read and write, "
                            + "or fix the directory's permissions.", e);
        } catch (UncheckedIOException e) {
            // The checks above cover the usual causes; what is left is found by trying (a directory the file system
            // refuses to create, a buffer file of another kind). The async buffer's failures say so first.
            if (String.valueOf(e.getMessage()).startsWith("cannot open the async buffer")) {
                throw new InvalidQueuePropertyException(prefix + "async-buffer-directory",
                        queue.getAsyncBufferDirectory() == null ? "(default)" : queue.getAsyncBufferDirectory(),
                        e.getMessage(), "Point " + prefix + "async-buffer-directory at a directory, or at a place "
                                + "where one can be created, that every process of the queue can read and write.", e);
            }
            throw new InvalidQueuePropertyException(prefix + "path", path, e.getMessage(),
                    "Point " + prefix + "path (or cq.base-path) at a directory, or at a place where one can be "
                            + "created, that this process can read and write.", e);
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("rollTime ")) {
                // The builder names the roll time, its zone and the cycle together: the zone is what cannot work
                // with a cycle shorter than a day (and a fraction of a millisecond is the time's own fault).
                boolean zone = message.contains("zone");
                String property = prefix + (zone ? "roll-time-zone" : "roll-time");
                Object value = zone ? Objects.requireNonNullElse(queue.getRollTimeZone(), ZoneOffset.UTC).getId()
                        : queue.getRollTime();
                throw new InvalidQueuePropertyException(property, value, message, zone
                        ? "Set " + property + " to a fixed offset such as +05:30 or UTC, or set " + prefix
                                + "roll-cycle to daily or weekly, whose cycles follow the zone's calendar."
                        : "Set " + property + " to whole milliseconds.", e);
            }
            // What the checks above cannot know before opening. The builder's other messages start with
            // "<setting>=<value>", and its setting names are the properties' names in camel case.
            String property = prefix + settingOf(message);
            throw new InvalidQueuePropertyException(property, valueOf(message), message,
                    "Change " + property + " as the message says.", e);
        }
    }

    private static String settingOf(String message) {
        int end = message.indexOf('=');
        String setting = end > 0 ? message.substring(0, end) : "";
        if (!setting.chars().allMatch(Character::isLetter)) {
            return "*";
        }
        return setting.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String valueOf(String message) {
        int start = message.indexOf('=');
        int end = message.indexOf(' ', start);
        return start < 0 || end < 0 ? "" : message.substring(start + 1, end);
    }

    private static void checkPath(String prefix, Path path, boolean readOnly) {
        if (readOnly) {
            if (Files.exists(path) && !Files.isDirectory(path)) {
                throw new InvalidQueuePropertyException(prefix + "path", path, "it exists and is not a directory",
                        "Point " + prefix + "path at an existing queue's directory.", null);
            }
            if (!Files.isDirectory(path)) {
                throw new InvalidQueuePropertyException(prefix + "path", path,
                        "the queue is read-only but the directory does not exist",
                        "Point " + prefix + "path at an existing queue, or set " + prefix + "read-only=false.", null);
            }
            return;
        }
        checkWritableDirectory(prefix + "path", path, "Point " + prefix + "path (or cq.base-path) at a directory, or "
                + "at a place where one can be created, that this process can read and write.");
    }

    /**
     * Two writable queue beans over one directory would be one queue under two names, each with its own settings: a
     * listener on one and a dead-letter queue on the other would feed its failures back to itself. A read-only view
     * of another queue's directory is a choice, and allowed.
     */
    private void checkNotShared(String name, Path path, boolean readOnly) {
        Path normalized = path.toAbsolutePath().normalize();
        properties.getQueues().forEach((other, queue) -> {
            Path otherPath = properties.pathOf(other, queue).toAbsolutePath().normalize();
            if (!other.equals(name) && otherPath.equals(normalized) && !readOnly && !queue.isReadOnly()) {
                throw new InvalidQueuePropertyException("cq.queues." + name + ".path", path, "the queue '" + other
                        + "' has the same directory, so the two names would be one queue",
                        "Give cq.queues." + name + ".path and cq.queues." + other + ".path different directories, "
                                + "make one of them read-only, or remove one and use the other's bean.", null);
            }
        });
    }

    /** A directory that exists, or can be made, and can be written: a writer creates its files there. */
    private static void checkWritableDirectory(String property, Path path, String fix) {
        if (Files.exists(path) && !Files.isDirectory(path)) {
            throw new InvalidQueuePropertyException(property, path, "it exists and is not a directory", fix, null);
        }
        Path existing = path.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw new InvalidQueuePropertyException(property, path,
                    "it cannot be created: " + existing + " is not a directory", fix, null);
        }
        if (!Files.isWritable(existing)) {
            throw new InvalidQueuePropertyException(property, path, "this process may not write to " + existing, fix,
                    null);
        }
    }

    private static void checkSettings(String prefix, QueueProperties queue) {
        long blockSize = queue.getBlockSize().toBytes();
        // An existing queue keeps its own roll cycle; the builder checks the block size against it again.
        RollCycle rollCycle = Objects.requireNonNullElse(queue.getRollCycle(), MappedQueueBuilder.DEFAULT_ROLL_CYCLE);
        long smallest = MappedQueueBuilder.smallestBlockSize(rollCycle);
        if (blockSize % PAGE != 0 || blockSize < smallest) {
            throw new InvalidQueuePropertyException(prefix + "block-size", queue.getBlockSize(),
                    "a block size must be a multiple of 4096 bytes and at least " + sizeText(smallest)
                            + " for roll cycle " + rollCycle + " (the default is 64MB)",
                    "Set " + prefix + "block-size to a multiple of 4KB of at least " + sizeText(smallest) + ", e.g. "
                            + suggestBlockSize(blockSize, smallest) + ".", null);
        }
        if (queue.getAsyncBufferDirectory() != null && !queue.isReadOnly()
                && !Boolean.FALSE.equals(queue.getAsyncMode())) {
            checkWritableDirectory(prefix + "async-buffer-directory", queue.getAsyncBufferDirectory(),
                    "Point " + prefix + "async-buffer-directory at a directory, or at a place where one can be "
                            + "created, that every process of the queue can read and write (e.g. /dev/shm), or "
                            + "remove it to use the default.");
        }
        if (queue.getReserveStep() != null) {
            long step = queue.getReserveStep().toBytes();
            if (step % PAGE != 0 || step < MIN_RESERVE_STEP || step > blockSize) {
                throw new InvalidQueuePropertyException(prefix + "reserve-step", queue.getReserveStep(),
                        "a reservation step must be a multiple of 4096 bytes from 64KB to the block size ("
                                + queue.getBlockSize() + ")",
                        "Set " + prefix + "reserve-step to a multiple of 4KB in that range, e.g. 512KB, or leave it "
                                + "unset.", null);
            }
        }
        int spacing = queue.getIndexSpacing();
        if (spacing < 1 || spacing > 1 << 20 || Integer.bitCount(spacing) != 1) {
            throw new InvalidQueuePropertyException(prefix + "index-spacing", spacing,
                    "the index spacing must be a power of two from 1 to 1048576",
                    "Set " + prefix + "index-spacing to a power of two, e.g. "
                            + Math.max(1, Math.min(1 << 20, Integer.highestOneBit(Math.max(1, spacing)))) + ".", null);
        }
        requirePositive(prefix + "sync-interval", queue.getSyncInterval());
        requirePositive(prefix + "write-lock-check-interval", queue.getWriteLockCheckInterval());
        if (queue.getWriteLockTimeout().compareTo(queue.getWriteLockCheckInterval()) <= 0) {
            throw new InvalidQueuePropertyException(prefix + "write-lock-timeout", queue.getWriteLockTimeout(),
                    "the write-lock timeout must be longer than write-lock-check-interval ("
                            + queue.getWriteLockCheckInterval() + "), so that a dead holder is always found first",
                    "Set " + prefix + "write-lock-timeout above " + queue.getWriteLockCheckInterval()
                            + ", e.g. 10s (the default), or leave it unset.", null);
        }
        if (queue.getRetainCycles() < 0) {
            throw new InvalidQueuePropertyException(prefix + "retain-cycles", queue.getRetainCycles(),
                    "the number of cycles to keep must not be negative",
                    "Set " + prefix + "retain-cycles to 0 (keep all) or more.", null);
        }
        if (queue.getRetainFor().isNegative()) {
            throw new InvalidQueuePropertyException(prefix + "retain-for", queue.getRetainFor(),
                    "the retention period must not be negative",
                    "Set " + prefix + "retain-for to 0 (keep all) or a positive duration such as 7d.", null);
        }
        double percent = queue.getDiskSpaceWarningPercent();
        if (percent < 0 || percent > 100) {
            throw new InvalidQueuePropertyException(prefix + "disk-space-warning-percent", percent,
                    "a percentage must be from 0 to 100", "Set " + prefix + "disk-space-warning-percent from 0 to 100.",
                    null);
        }
        if (queue.getDiskSpaceWarningSize().toBytes() < 0) {
            throw new InvalidQueuePropertyException(prefix + "disk-space-warning-size", queue.getDiskSpaceWarningSize(),
                    "a size must not be negative", "Set " + prefix + "disk-space-warning-size to 0 (off) or more.",
                    null);
        }
        checkPermissions(prefix, queue.getFilePermissions());
    }

    private static void checkPermissions(String prefix, String permissions) {
        String fix = "Set " + prefix + "file-permissions to nine characters like rw-r----- that let the owner read "
                + "and write.";
        try {
            PosixFilePermissions.fromString(permissions);
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException(prefix + "file-permissions", permissions,
                    "it is not a permission string of the form rwxrwxrwx", fix, e);
        }
        if (!permissions.startsWith("rw")) {
            throw new InvalidQueuePropertyException(prefix + "file-permissions", permissions,
                    "the owner must be able to read and write the queue's files", fix, null);
        }
    }

    private static void requirePositive(String property, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new InvalidQueuePropertyException(property, duration, "the interval must be positive",
                    "Set " + property + " to a positive duration such as 200ms.", null);
        }
    }

    private static String suggestBlockSize(long bytes, long smallest) {
        return sizeText(Math.max(smallest, (bytes + PAGE - 1) / PAGE * PAGE));
    }

    /** Whole pages in the units Spring's DataSize reads back: 64MB, 260KB, or bytes. */
    private static String sizeText(long bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + "MB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + "KB" : bytes + "B";
    }
}
