package io.cq.core.internal.inspect;

import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.ExcerptHeader;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptFormatter;
import io.cq.core.NamedTailerPosition;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Writes a queue as readable text: the table store's settings and named tailers, then each cycle file's header
 * and its records in order, each excerpt rendered by an {@link ExcerptFormatter} ({@link #RAW} by default: text
 * when it is printable UTF-8, hex otherwise).
 */
public final class QueueDumper {
    private static final int SHOWN_BYTES = 1024;

    /** Printable UTF-8 as quoted text, anything else as hex; the first 1 KiB only. */
    public static final ExcerptFormatter RAW = QueueDumper::formatRaw;

    private final QueueContext queue;
    private final Appendable out;
    private final ExcerptFormatter formatter;
    private final SegmentCursor cursor = new SegmentCursor();

    public QueueDumper(QueueContext queue, Appendable out, ExcerptFormatter formatter) {
        this.queue = queue;
        this.out = out;
        this.formatter = formatter;
    }

    /** The whole queue. */
    public void dumpQueue() throws IOException {
        dumpQueue(-1);
    }

    /** The table store, then one cycle ({@code -1}: every cycle). */
    public void dumpQueue(long onlyCycle) throws IOException {
        out.append("# queue ").append(queue.describe()).append('\n');
        out.append("roll cycle: ").append(queue.rollCycle().name())
                .append(" (").append(String.valueOf(queue.rollCycle().lengthMillis())).append(" ms, ")
                .append(String.valueOf(queue.rollCycle().sequenceBits())).append(" sequence bits)\n");
        for (NamedTailerPosition tailer : queue.tableStore().positions()) {
            out.append("named tailer '").append(tailer.name()).append("': next index ")
                    .append(tailer.nextIndex() < 0 ? "start" : hex(tailer.nextIndex()))
                    .append(tailer.held() ? ", held by " + tailer.holder() : "").append('\n');
        }
        for (long cycle : queue.files().cycles()) {
            if (onlyCycle >= 0 && cycle != onlyCycle) {
                continue;
            }
            CycleFile file = queue.files().acquire(cycle);
            if (file != null) {
                try {
                    dumpCycle(file);
                } finally {
                    queue.files().release(file);
                }
            }
        }
    }

    private void dumpCycle(CycleFile file) throws IOException {
        out.append("\n## ").append(file.path().getFileName().toString()).append('\n');
        out.append("cycle: ").append(String.valueOf(file.cycle()))
                .append(", created: ").append(Instant.ofEpochMilli(file.createdMillis()).toString())
                .append(", block size: ").append(String.valueOf(file.blockSize()))
                .append(", index: ").append(String.valueOf(file.indexCount())).append(" x ")
                .append(String.valueOf(file.indexCount())).append(" entries every ")
                .append(String.valueOf(file.indexSpacing())).append(" excerpts")
                .append(", data from ").append(String.valueOf(file.dataStart())).append('\n');
        long position = file.dataStart();
        long sequence = 0;
        while (true) {
            int header = file.headerAt(position);
            if (ExcerptHeader.isData(header)) {
                int length = ExcerptHeader.length(header);
                out.append(hex(queue.rollCycle().toIndex(file.cycle(), sequence)))
                        .append(" @").append(String.valueOf(position))
                        .append(" (").append(String.valueOf(length)).append(" bytes) ");
                appendPayload(file, position + ExcerptHeader.SIZE, length);
                out.append('\n');
                sequence++;
                position = file.next(position, header);
            } else if (ExcerptHeader.isEndOfCycle(header)) {
                out.append("@").append(String.valueOf(position)).append(" end of cycle\n");
                return;
            } else if (ExcerptHeader.isMeta(header)) {
                out.append("@").append(String.valueOf(position)).append(" index block (")
                        .append(String.valueOf(ExcerptHeader.length(header))).append(" bytes)\n");
                position = file.next(position, header);
            } else {
                out.append("@").append(String.valueOf(position)).append(' ').append(ExcerptHeader.describe(header))
                        .append(header == ExcerptHeader.EMPTY ? " (end of written data)" : "").append('\n');
                return;
            }
        }
    }

    private void appendPayload(CycleFile file, long offsetInFile, int length) throws IOException {
        MemorySegment chunk = file.mapped().chunkAt(offsetInFile - ExcerptHeader.SIZE);
        long offset = (offsetInFile - ExcerptHeader.SIZE) % file.blockSize() + ExcerptHeader.SIZE;
        cursor.bindForRead(chunk, offset, length);
        try {
            formatter.format(cursor, out);
        } finally {
            cursor.unbind();
        }
    }

    private static void formatRaw(ExcerptBytes excerpt, Appendable out) throws IOException {
        int length = (int) excerpt.length();
        int shown = Math.min(length, SHOWN_BYTES);
        byte[] bytes = new byte[shown];
        excerpt.readBytes(bytes);
        String text = printableText(bytes);
        if (text != null) {
            out.append('"').append(text).append('"');
        } else {
            for (byte b : bytes) {
                out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
        }
        if (shown < length) {
            out.append(" ... (").append(String.valueOf(length - shown)).append(" more bytes)");
        }
    }

    /** The bytes as text when they are valid UTF-8 without control characters (other than tab and newline). */
    static String printableText(byte[] bytes) {
        return printableText(bytes, true);
    }

    /**
     * The bytes as text when they are valid UTF-8 without control characters other than tab and newline, else
     * null; with {@code escaped}, tab and newline are shown as {@code \t} and {@code \n}.
     */
    public static String printableText(byte[] bytes, boolean escaped) {
        if (bytes.length == 0) {
            return "";
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\t') {
                return null;
            }
        }
        return escaped ? text.replace("\n", "\\n").replace("\t", "\\t") : text;
    }

    private static String hex(long index) {
        return "0x" + Long.toHexString(index);
    }

}
