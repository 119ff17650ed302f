package io.cq.core.internal.table;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.RollCycle;
import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.system.AtomicFiles;
import io.cq.core.internal.system.FilePermissions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Writes a new table store's header, and checks an existing one's before anything is mapped, so damage is
 * reported, never mapped and trusted (layout in {@link TableStoreDescriptor}).
 */
final class TableStoreHeaders {
    /** What the rest of the table store is read with. */
    record Header(int slotCount, CycleCalendar calendar, int version, AsyncBufferConfig async, ExcerptCodecs codecs) {
    }

    private TableStoreHeaders() {
    }

    static void create(Path file, CycleCalendar calendar, AsyncBufferConfig async, ExcerptCodecs codecs,
                       long nowMillis, FilePermissions permissions) throws IOException {
        RollCycle rollCycle = calendar.rollCycle();
        int slots = TableStoreDescriptor.DEFAULT_SLOT_COUNT;
        // The file up to the process records is written (zeros after the head), so that its blocks are allocated by
        // the write itself: reserving them later through another descriptor would be fatal, since closing any
        // descriptor of a file drops every fcntl lock this process holds on it, the process slot included
        // (docs/file-format.md). The process records stay sparse: each process writes its own when it claims a slot.
        ByteBuffer head = ByteBuffer.allocate((int) TableStoreDescriptor.processRecordsOffset(slots))
                .order(ByteOrder.LITTLE_ENDIAN);
        head.putLong((int) TableStoreDescriptor.MAGIC_OFFSET, TableStoreDescriptor.MAGIC);
        head.putInt((int) TableStoreDescriptor.FORMAT_VERSION_OFFSET, TableStoreDescriptor.FORMAT_VERSION);
        head.putInt((int) TableStoreDescriptor.SLOT_COUNT_OFFSET, slots);
        head.putLong((int) TableStoreDescriptor.ROLL_LENGTH_OFFSET, rollCycle.lengthMillis());
        head.putLong((int) TableStoreDescriptor.ROLL_EPOCH_OFFSET, rollCycle.epochOffsetMillis());
        head.putInt((int) TableStoreDescriptor.SEQUENCE_BITS_OFFSET, rollCycle.sequenceBits());
        byte[] name = rollCycle.name().getBytes(StandardCharsets.US_ASCII);
        head.putInt((int) TableStoreDescriptor.ROLL_NAME_LENGTH_OFFSET, name.length);
        head.put((int) TableStoreDescriptor.ROLL_NAME_OFFSET, name);
        head.putLong((int) TableStoreDescriptor.CREATED_MILLIS_OFFSET, nowMillis);
        if (!calendar.isDefault()) {
            head.putInt((int) TableStoreDescriptor.ROLL_TIME_MILLIS_OFFSET,
                    (int) (calendar.rollTime().toNanoOfDay() / 1_000_000L));
            byte[] zone = calendar.zone().getId().getBytes(StandardCharsets.US_ASCII);
            head.putInt((int) TableStoreDescriptor.ROLL_ZONE_LENGTH_OFFSET, zone.length);
            head.put((int) TableStoreDescriptor.ROLL_ZONE_OFFSET, zone);
        }
        if (async.enabled()) {
            byte[] directory = async.directory().getBytes(StandardCharsets.UTF_8);
            if (directory.length > TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY) {
                throw new IllegalArgumentException("asyncBufferDirectory " + async.directory() + " is longer than "
                        + TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY + " bytes in UTF-8; choose a shorter path");
            }
            head.putLong((int) TableStoreDescriptor.ASYNC_BUFFER_SIZE_OFFSET, async.size());
            head.putLong((int) TableStoreDescriptor.QUEUE_ID_OFFSET, async.queueId());
            head.putInt((int) TableStoreDescriptor.ASYNC_DIRECTORY_LENGTH_OFFSET, directory.length);
            head.put((int) TableStoreDescriptor.ASYNC_DIRECTORY_OFFSET, directory);
        }
        if (!codecs.isPlain()) {
            // Version 3: a cq without codecs refuses the queue instead of handing out frames as excerpts.
            head.putInt((int) TableStoreDescriptor.FORMAT_VERSION_OFFSET, CodecDescriptor.TABLE_STORE_VERSION);
            head.putInt((int) CodecDescriptor.TABLE_FLAGS_OFFSET, (codecs.checksums() ? CodecDescriptor.FLAG_CHECKSUMS
                    : 0) | (codecs.encrypted() ? CodecDescriptor.FLAG_ENCRYPTED : 0));
            head.putInt((int) CodecDescriptor.TABLE_COMPRESSION_OFFSET, codecs.compression().id());
            head.putInt((int) CodecDescriptor.TABLE_THRESHOLD_OFFSET, codecs.compressionThreshold());
        }
        head.putLong((int) TableStoreDescriptor.MAX_CYCLE_OFFSET, TableStore.NO_CYCLE);
        head.putLong((int) TableStoreDescriptor.MIN_CYCLE_OFFSET, TableStore.NO_CYCLE);
        AtomicFiles.createWithContent(file, head, permissions);
    }

    static Header validate(Path path, FileChannel channel) throws IOException {
        long size = channel.size();
        if (size < TableStoreDescriptor.SLOTS_OFFSET) {
            throw new CorruptQueueException(path, size, "table store is " + size + " bytes long, shorter than its "
                    + TableStoreDescriptor.SLOTS_OFFSET + "-byte header");
        }
        ByteBuffer head = ByteBuffer.allocate((int) TableStoreDescriptor.SLOTS_OFFSET).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head, head.position()) >= 0) {
            // read the whole header
        }
        long magic = head.getLong((int) TableStoreDescriptor.MAGIC_OFFSET);
        if (magic != TableStoreDescriptor.MAGIC) {
            throw new CorruptQueueException(path, 0, String.format("not a cq table store: expected magic "
                    + "'cq.table' (0x%016x), found 0x%016x", TableStoreDescriptor.MAGIC, magic));
        }
        int version = head.getInt((int) TableStoreDescriptor.FORMAT_VERSION_OFFSET);
        if (version != TableStoreDescriptor.FORMAT_VERSION && version != TableStoreDescriptor.FORMAT_VERSION_1
                && version != CodecDescriptor.TABLE_STORE_VERSION) {
            throw new CorruptQueueException(path, TableStoreDescriptor.FORMAT_VERSION_OFFSET, "unsupported table "
                    + "store version " + version + "; this cq reads versions " + TableStoreDescriptor.FORMAT_VERSION_1
                    + " to " + CodecDescriptor.TABLE_STORE_VERSION);
        }
        int slotCount = head.getInt((int) TableStoreDescriptor.SLOT_COUNT_OFFSET);
        if (slotCount <= 0 || slotCount > TableStoreDescriptor.MAX_SLOT_COUNT
                || size < TableStoreDescriptor.processRecordsOffset(slotCount)) {
            throw new CorruptQueueException(path, TableStoreDescriptor.SLOT_COUNT_OFFSET, "slot count " + slotCount
                    + " does not fit a file of " + size + " bytes");
        }
        return new Header(slotCount, readCalendar(path, head, readRollCycle(path, head)), version,
                readAsync(path, head), version == CodecDescriptor.TABLE_STORE_VERSION ? readCodecs(path, head)
                : ExcerptCodecs.none());
    }

    private static ExcerptCodecs readCodecs(Path path, ByteBuffer head) {
        int flags = head.getInt((int) CodecDescriptor.TABLE_FLAGS_OFFSET);
        int method = head.getInt((int) CodecDescriptor.TABLE_COMPRESSION_OFFSET);
        int threshold = head.getInt((int) CodecDescriptor.TABLE_THRESHOLD_OFFSET);
        Compression compression = Compression.ofId(method);
        if (flags == 0 && method == 0) {
            // Only a queue with codecs has a version 3 table store: codecs zeroed out are damage, not a plain queue.
            throw new CorruptQueueException(path, CodecDescriptor.TABLE_FLAGS_OFFSET, "a version 3 table store records "
                    + "no codecs: its header is damaged");
        }
        if ((flags & ~CodecDescriptor.KNOWN_FLAGS) != 0 || compression == null
                || (compression == Compression.NONE ? threshold != 0 : threshold < 1 || threshold > 16 << 20)) {
            throw new CorruptQueueException(path, CodecDescriptor.TABLE_FLAGS_OFFSET, String.format("codecs are "
                    + "recorded as flags 0x%x, compression %d, threshold %d: this cq knows flags 0x1 (checksums) and "
                    + "0x2 (encryption), compression 0 to 2, and a threshold of 1 to 16 MiB with compression, 0 "
                    + "without",
                    flags, method, threshold));
        }
        return ExcerptCodecs.of((flags & CodecDescriptor.FLAG_CHECKSUMS) != 0, compression, threshold,
                (flags & CodecDescriptor.FLAG_ENCRYPTED) != 0, null);
    }

    private static AsyncBufferConfig readAsync(Path path, ByteBuffer head) {
        long size = head.getLong((int) TableStoreDescriptor.ASYNC_BUFFER_SIZE_OFFSET);
        if (size == 0) {
            return AsyncBufferConfig.NONE;
        }
        int length = head.getInt((int) TableStoreDescriptor.ASYNC_DIRECTORY_LENGTH_OFFSET);
        if (size < AsyncRingDescriptor.MIN_CAPACITY || size > AsyncRingDescriptor.MAX_CAPACITY || size % 4096 != 0
                || length <= 0 || length > TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ASYNC_BUFFER_SIZE_OFFSET, "async buffer size "
                    + size + " or directory length " + length + " is out of range (a multiple of 4096 from "
                    + AsyncRingDescriptor.MIN_CAPACITY + " to " + AsyncRingDescriptor.MAX_CAPACITY + "; 1 to "
                    + TableStoreDescriptor.ASYNC_DIRECTORY_CAPACITY + ")");
        }
        byte[] directory = new byte[length];
        head.get((int) TableStoreDescriptor.ASYNC_DIRECTORY_OFFSET, directory);
        return new AsyncBufferConfig(size, head.getLong((int) TableStoreDescriptor.QUEUE_ID_OFFSET),
                new String(directory, StandardCharsets.UTF_8));
    }

    private static CycleCalendar readCalendar(Path path, ByteBuffer head, RollCycle rollCycle) {
        int millis = head.getInt((int) TableStoreDescriptor.ROLL_TIME_MILLIS_OFFSET);
        int length = head.getInt((int) TableStoreDescriptor.ROLL_ZONE_LENGTH_OFFSET);
        if (millis < 0 || millis >= 86_400_000 || length < 0 || length > TableStoreDescriptor.ROLL_ZONE_CAPACITY) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ROLL_TIME_MILLIS_OFFSET, "roll time "
                    + millis + " ms of the day or zone length " + length + " is out of range (0 to 86399999, and 0 "
                    + "to " + TableStoreDescriptor.ROLL_ZONE_CAPACITY + ")");
        }
        byte[] zoneBytes = new byte[length];
        head.get((int) TableStoreDescriptor.ROLL_ZONE_OFFSET, zoneBytes);
        String zone = new String(zoneBytes, StandardCharsets.US_ASCII);
        try {
            return CycleCalendar.of(rollCycle, LocalTime.ofNanoOfDay(millis * 1_000_000L),
                    length == 0 ? ZoneOffset.UTC : ZoneId.of(zone));
        } catch (DateTimeException | IllegalArgumentException e) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ROLL_ZONE_OFFSET, "roll time zone '" + zone
                    + "' cannot be used: " + e.getMessage());
        }
    }

    private static RollCycle readRollCycle(Path path, ByteBuffer head) {
        int length = head.getInt((int) TableStoreDescriptor.ROLL_NAME_LENGTH_OFFSET);
        if (length <= 0 || length > TableStoreDescriptor.ROLL_NAME_CAPACITY) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ROLL_NAME_LENGTH_OFFSET, "roll cycle name "
                    + "length " + length + " is out of range 1.." + TableStoreDescriptor.ROLL_NAME_CAPACITY);
        }
        byte[] nameBytes = new byte[length];
        head.get((int) TableStoreDescriptor.ROLL_NAME_OFFSET, nameBytes);
        String name = new String(nameBytes, StandardCharsets.US_ASCII);
        RollCycle cycle = rollCycleNamed(name);
        if (cycle == null) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ROLL_NAME_OFFSET, "unknown roll cycle '"
                    + name + "'");
        }
        if (cycle.lengthMillis() != head.getLong((int) TableStoreDescriptor.ROLL_LENGTH_OFFSET)
                || cycle.sequenceBits() != head.getInt((int) TableStoreDescriptor.SEQUENCE_BITS_OFFSET)) {
            throw new CorruptQueueException(path, TableStoreDescriptor.ROLL_LENGTH_OFFSET, "roll cycle " + name
                    + " is recorded with a length or sequence bits that differ from this cq's " + name);
        }
        return cycle;
    }

    /**
     * {@code RollCycle.valueOf} without its cost: the first {@code Enum.valueOf} in a JVM finds the constants by
     * reflection, which sets up the JDK's method-handle accessors, a few milliseconds of a new process's start.
     */
    private static RollCycle rollCycleNamed(String name) {
        for (RollCycle cycle : RollCycle.values()) {
            if (cycle.name().equals(name)) {
                return cycle;
            }
        }
        return null;
    }
}
