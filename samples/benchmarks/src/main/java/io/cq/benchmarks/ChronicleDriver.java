package io.cq.benchmarks;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.List;

/** Chronicle Queue through its document contexts and raw {@link Bytes}: its fastest documented path. */
public final class ChronicleDriver implements QueueDriver {
    public static final String VERSION = "2026.4";

    /**
     * What Chronicle Queue needs on JDK 25 (the first three; without them it fails or warns), and what keeps it
     * from printing banners and phoning home (the rest). Found by removing each flag in turn.
     */
    public static final List<String> JVM_ARGS = List.of(
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-Dchronicle.analytics.disable=true",
            "-Dchronicle.announcer.disable=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private final SingleChronicleQueue queue;
    private ExcerptAppender appender;
    private ExcerptTailer tailer;
    private final OneByOneReads oneByOne = new OneByOneReads();

    public ChronicleDriver(Path directory) {
        this.queue = SingleChronicleQueueBuilder.single(directory.toString()).rollCycle(RollCycles.FAST_DAILY).build();
    }

    @Override
    public long append(long value, byte[] payload) {
        ExcerptAppender a = appender;
        if (a == null) {
            a = appender = queue.createAppender();
        }
        try (DocumentContext dc = a.writingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeLong(value);
            bytes.write(payload, 8, payload.length - 8);
        }
        return a.lastIndexAppended();
    }

    @Override
    public long read() {
        ExcerptTailer t = tailer();
        try (DocumentContext dc = t.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            Bytes<?> bytes = dc.wire().bytes();
            long length = bytes.readRemaining();
            return bytes.readLong() + length;
        }
    }

    @Override
    public int readCopy(byte[] into) {
        try (DocumentContext dc = tailer().readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            Bytes<?> bytes = dc.wire().bytes();
            int length = (int) bytes.readRemaining();
            bytes.read(into, 0, length);
            return length;
        }
    }

    /** Chronicle Queue has no batch read: its tailer's read loop is the fastest way it drains a queue. */
    @Override
    public int readBatch(int limit) {
        return oneByOne.read(this, limit);
    }

    @Override
    public long checksum() {
        return oneByOne.checksum();
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
        if (appender != null) {
            appender.close();
        }
        if (tailer != null) {
            tailer.close();
        }
        queue.close();
    }
}
