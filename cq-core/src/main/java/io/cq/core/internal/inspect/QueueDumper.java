package io.cq.core.internal.inspect;

import io.cq.core.ExcerptFormatter;
import io.cq.core.NamedTailerPosition;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.named.NamedTailerSlots;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.time.Instant;

/**
 * Writes a queue as readable text: the table store's settings and named tailers, then each cycle file's header
 * and its records in order, each excerpt rendered by an {@link ExcerptFormatter} ({@link #RAW} by default: text
 * when it is printable UTF-8, hex otherwise).
 */
public final class QueueDumper {
    private final CycleFiles files;
    private final Appendable out;
    private final ExcerptFormatter formatter;
    private final SegmentCursor cursor = new SegmentCursor();

    public QueueDumper(CycleFiles files, Appendable out, ExcerptFormatter formatter) {
        this.files = files;
        this.out = out;
        this.formatter = formatter;
    }

    /** The whole queue. */
    public void dumpQueue() throws IOException {
        dumpQueue(-1);
    }

    /** The table store, then one cycle ({@code -1}: every cycle). */
    public void dumpQueue(long onlyCycle) throws IOException {
        out.append("# queue ").append(files.directory().toString()).append('\n');
        out.append("roll cycle: ").append(files.rollCycle().name())
                .append(" (").append(String.valueOf(files.rollCycle().lengthMillis())).append(" ms, ")
                .append(String.valueOf(files.rollCycle().sequenceBits())).append(" sequence bits)\n");
        for (NamedTailerPosition tailer
                : new NamedTailerSlots(files.tableStore(), files.directory().toString()).positions()) {
            out.append("named tailer '").append(tailer.name()).append("': next index ")
                    .append(tailer.nextIndex() < 0 ? "start" : hex(tailer.nextIndex()))
                    .append(tailer.held() ? ", held by " + tailer.holder() : "").append('\n');
        }
        for (long cycle : files.cycles()) {
            if (onlyCycle >= 0 && cycle != onlyCycle) {
                continue;
            }
            CycleFile file = files.acquire(cycle);
            if (file != null) {
                try {
                    dumpCycle(file);
                } finally {
                    files.release(file);
                }
            }
        }
    }

    private void dumpCycle(CycleFile file) throws IOException {
        out.append("\n## ").append(file.path().getFileName().toString()).append('\n');
        out.append("cycle: ").append(String.valueOf(file.cycle()))
                .append(", created: ").append(Instant.ofEpochMilli(file.createdMillis()).toString())
                .append(", block size: ").append(String.valueOf(file.blockSize()))
                .append(", index: ").append(String.valueOf(file.index().indexCount())).append(" x ")
                .append(String.valueOf(file.index().indexCount())).append(" entries every ")
                .append(String.valueOf(file.index().indexSpacing())).append(" excerpts")
                .append(", data from ").append(String.valueOf(file.dataStart())).append('\n');
        long position = file.dataStart();
        long sequence = 0;
        while (true) {
            int header = file.headerAt(position);
            if (ExcerptHeaderDescriptor.isData(header)) {
                int length = ExcerptHeaderDescriptor.length(header);
                out.append(hex(files.rollCycle().toIndex(file.cycle(), sequence)))
                        .append(" @").append(String.valueOf(position))
                        .append(" (").append(String.valueOf(length)).append(" bytes) ");
                appendPayload(file, position + ExcerptHeaderDescriptor.SIZE, length);
                out.append('\n');
                sequence++;
                position = file.next(position, header);
            } else if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                out.append("@").append(String.valueOf(position)).append(" end of cycle\n");
                return;
            } else if (ExcerptHeaderDescriptor.isMeta(header)) {
                out.append("@").append(String.valueOf(position)).append(" index block (")
                        .append(String.valueOf(ExcerptHeaderDescriptor.length(header))).append(" bytes)\n");
                position = file.next(position, header);
            } else {
                out.append("@").append(String.valueOf(position)).append(' ')
                        .append(ExcerptHeaderDescriptor.describe(header))
                        .append(header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isFree(header)
                                ? " (end of written data)" : "").append('\n');
                return;
            }
        }
    }

    private void appendPayload(CycleFile file, long offsetInFile, int length) throws IOException {
        MemorySegment chunk = file.mapped().readableChunkAt(offsetInFile - ExcerptHeaderDescriptor.SIZE,
                ExcerptHeaderDescriptor.SIZE + length);
        long offset = (offsetInFile - ExcerptHeaderDescriptor.SIZE) % file.blockSize() + ExcerptHeaderDescriptor.SIZE;
        cursor.bindForRead(chunk, offset, length);
        try {
            formatter.format(cursor, out);
        } finally {
            cursor.unbind();
        }
    }

    private static String hex(long index) {
        return "0x" + Long.toHexString(index);
    }

}
