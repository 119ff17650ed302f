package io.cq.benchmarks;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptHandler;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;
import io.cq.core.codec.ExcerptCodecs;

import java.nio.file.Path;

/**
 * cq through its write and read contexts, optionally with its background pretoucher, in async mode, or with excerpt
 * codecs ({@link CodecVariants}).
 */
public final class CqDriver implements QueueDriver {
    private final MappedQueue queue;
    private ExcerptAppender appender;
    private ExcerptTailer tailer;
    private final Sum sum = new Sum();

    public CqDriver(Path directory, boolean pretouch) {
        this(directory, pretouch, false);
    }

    /** A queue with excerpt codecs: checksums, compression, encryption (its keys in {@code codecs}). */
    public CqDriver(Path directory, ExcerptCodecs codecs) {
        this.queue = MappedQueue.builder(directory).rollCycle(RollCycle.DAILY).codecs(codecs).build();
    }

    /** With {@code async}, writers add to the queue's async buffer in shared memory, drained in the background. */
    public CqDriver(Path directory, boolean pretouch, boolean async) {
        this.queue = MappedQueue.builder(directory).rollCycle(RollCycle.DAILY).pretouch(pretouch).asyncMode(async)
                .asyncBufferSize(Long.getLong("cq.bench.asyncBufferSize", MappedQueueBuilder.DEFAULT_ASYNC_BUFFER_SIZE))
                .asyncDrain(Boolean.parseBoolean(System.getProperty("cq.bench.asyncDrain", "true")))
                .build();
    }

    @Override
    public long append(long value, byte[] payload) {
        ExcerptAppender a = appender;
        if (a == null) {
            a = appender = queue.createAppender();
        }
        try (WriteContext dc = a.writingDocument()) {
            dc.bytes().writeLong(value).writeBytes(payload, 8, payload.length - 8);
        }
        return a.lastIndexAppended();
    }

    @Override
    public long read() {
        ExcerptTailer t = tailer();
        try (ReadContext dc = t.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            return dc.bytes().readLong() + dc.bytes().length();
        }
    }

    @Override
    public int readCopy(byte[] into) {
        try (ReadContext dc = tailer().readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            ExcerptBytes bytes = dc.bytes();
            int length = (int) bytes.length();
            bytes.readBytes(into, 0, length);
            return length;
        }
    }

    /** cq's batch read: {@link ExcerptTailer#poll} walks the excerpts that are there in one call. */
    @Override
    public int readBatch(int limit) {
        return tailer().poll(sum, limit);
    }

    @Override
    public long checksum() {
        return sum.value;
    }

    @Override
    public boolean moveToIndex(long index) {
        return tailer().moveToIndex(index);
    }

    @Override
    public void toStart() {
        tailer().toStart();
    }

    private ExcerptTailer tailer() {
        ExcerptTailer t = tailer;
        if (t == null) {
            t = tailer = queue.createTailer();
        }
        return t;
    }

    @Override
    public void close() {
        queue.close();
    }

    private static final class Sum implements ExcerptHandler {
        long value;

        @Override
        public void onExcerpt(ExcerptBytes bytes, long index) {
            value += bytes.readLong() + bytes.length();
        }
    }
}
