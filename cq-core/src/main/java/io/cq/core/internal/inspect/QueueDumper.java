package io.cq.core.internal.inspect;

import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptFormatter;
import io.cq.core.MissingKeyException;
import io.cq.core.NamedTailerPosition;
import io.cq.core.QueueException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.codec.FrameReader;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.named.NamedTailerSlots;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.time.Instant;

/**
 * Writes a queue as readable text: the table store's settings and named tailers, then each cycle file's header
 * and its records in order, each excerpt rendered by an {@link ExcerptFormatter} ({@link #RAW} by default: text
 * when it is printable UTF-8, hex otherwise). An excerpt of a file with codecs is decoded as a tailer decodes it
 * (docs/file-format.md, "Excerpt codecs") and shown with what its frame says: key id, compression, checksum.
 */
public final class QueueDumper {
    private final CycleFiles files;
    private final Appendable out;
    private final ExcerptFormatter formatter;
    private final ExcerptCodecs codecs;
    private final SegmentCursor cursor = new SegmentCursor();
    private FrameReader frames;
    private CorruptQueueException damage;
    private MissingKeyException missingKey;

    /** @param codecs the queue's codecs in force, with the keys it was opened with (none: a plain queue) */
    public QueueDumper(CycleFiles files, Appendable out, ExcerptFormatter formatter, ExcerptCodecs codecs) {
        this.files = files;
        this.out = out;
        this.formatter = formatter;
        this.codecs = codecs;
    }

    /** The whole queue. */
    public void dumpQueue() throws IOException {
        dumpQueue(-1);
    }

    /**
     * The table store, then one cycle ({@code -1}: every cycle).
     *
     * @throws CorruptQueueException once everything readable is written, naming the first damage the dump met (a
     *                               header that is no record's, records after a zeroed stretch, a record cut short,
     *                               an excerpt whose checksum or tag does not match)
     * @throws MissingKeyException   once everything readable is written, when there is no damage but an encrypted
     *                               excerpt named a key id the queue was not given
     */
    public void dumpQueue(long onlyCycle) throws IOException {
        out.append("# queue ").append(files.directory().toString()).append('\n');
        out.append("roll cycle: ").append(files.rollCycle().name())
                .append(" (").append(String.valueOf(files.rollCycle().lengthMillis())).append(" ms, ")
                .append(String.valueOf(files.rollCycle().sequenceBits())).append(" sequence bits)\n");
        if (codecs != null && !codecs.isPlain()) {
            out.append("codecs: ").append(codecs.describe()).append('\n');
        }
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
            CycleFile file;
            try {
                file = files.acquire(cycle);
            } catch (CorruptQueueException e) {
                out.append("\n## cycle ").append(String.valueOf(cycle)).append(": ").append(e.getMessage())
                        .append('\n');
                if (damage == null) {
                    damage = e;
                }
                continue;
            }
            if (file != null) {
                try {
                    dumpCycle(file);
                } catch (CorruptQueueException e) {
                    // Met walking the records (a length past the largest): the next cycles are dumped all the same.
                    out.append("@").append(String.valueOf(e.position())).append(' ').append(e.problem()).append('\n');
                    if (damage == null) {
                        damage = e;
                    }
                } finally {
                    files.release(file);
                }
            }
        }
        if (damage != null) {
            throw damage;
        }
        if (missingKey != null) {
            throw missingKey;
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
                .append(", data from ").append(String.valueOf(file.dataStart()))
                .append(file.codecs() == null ? "" : ", codecs: " + file.codecs().codecs().describe()
                        .replace(" (no keys given)", "")).append('\n');
        long position = file.dataStart();
        long sequence = 0;
        while (true) {
            int header = file.headerAt(position);
            if (ExcerptHeaderDescriptor.isData(header)) {
                int length = ExcerptHeaderDescriptor.length(header);
                long index = files.rollCycle().toIndex(file.cycle(), sequence);
                out.append(hex(index))
                        .append(" @").append(String.valueOf(position))
                        .append(" (").append(String.valueOf(length)).append(" bytes) ");
                boolean whole = appendPayload(file, position + ExcerptHeaderDescriptor.SIZE, length, index);
                out.append('\n');
                if (!whole) {
                    return;
                }
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
                boolean free = header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isFree(header);
                if (!free && ExcerptHeaderDescriptor.isWorking(header)) {
                    out.append("@").append(String.valueOf(position)).append(' ')
                            .append(ExcerptHeaderDescriptor.describe(header))
                            .append(" (or left unfinished by a writer that stopped)\n");
                    return;
                }
                long nonZero = free ? UnwrittenArea.firstNonZero(file, position + ExcerptHeaderDescriptor.SIZE,
                        file.mapped().size()) : -1;
                out.append("@").append(String.valueOf(position)).append(' ')
                        .append(ExcerptHeaderDescriptor.describe(header))
                        .append(free && nonZero < 0 ? " (end of written data)" : "").append('\n');
                if (!free) {
                    damage(file, position, "expected a record header, found "
                            + ExcerptHeaderDescriptor.describe(header));
                } else if (nonZero >= 0 && file.headerAt(position) == header
                        && UnwrittenArea.ofOpenRecord(file, position, nonZero)) {
                    out.append("@").append(String.valueOf(nonZero)).append(" bytes of an excerpt being written after ")
                            .append("the end (or left unfinished by a writer that stopped)\n");
                } else if (nonZero >= 0 && file.headerAt(position) == header) {
                    out.append("@").append(String.valueOf(nonZero))
                            .append(" non-zero bytes after the end of the data\n");
                    damage(file, nonZero, "non-zero bytes at position " + nonZero + " after the free header at "
                            + position + ": records after a zeroed stretch, which readers take for the end");
                }
                return;
            }
        }
    }

    /** The first damage met, kept so that the dump goes on to the other cycles and reports it at the end. */
    private void damage(CycleFile file, long position, String problem) {
        if (damage == null) {
            damage = new CorruptQueueException(file.path(), position, problem + "; cq verify lists every damage");
        }
    }

    /** False when the excerpt runs past the file's end, which is then damage. */
    private boolean appendPayload(CycleFile file, long offsetInFile, int length, long index) throws IOException {
        long headerAt = offsetInFile - ExcerptHeaderDescriptor.SIZE;
        MemorySegment chunk;
        try {
            chunk = file.mapped().readableChunkAt(headerAt, ExcerptHeaderDescriptor.SIZE + length);
        } catch (QueueException e) {
            out.append("(cut short: the file ends first)");
            damage(file, headerAt, "the record of " + length + " bytes at " + headerAt + " ends past the end of the "
                    + "file (" + file.mapped().size() + " bytes): it was cut short");
            return false;
        }
        long offset = (offsetInFile - ExcerptHeaderDescriptor.SIZE) % file.blockSize() + ExcerptHeaderDescriptor.SIZE;
        if (file.codecs() == null) {
            cursor.bindForRead(chunk, offset, length);
        } else if (!openFrame(file, chunk, offset, length, headerAt, index)) {
            return true;
        }
        try {
            formatter.format(cursor, out);
        } finally {
            cursor.unbind();
        }
        return true;
    }

    /**
     * Decodes the framed excerpt and shows what its frame says before it; false, with the reason shown instead,
     * when it cannot be decoded: damage (kept to report at the end), or a key the queue was not given.
     */
    private boolean openFrame(CycleFile file, MemorySegment chunk, long offset, int length, long position,
                              long index) throws IOException {
        FileCodecs fileCodecs = file.codecs();
        if (frames == null) {
            frames = new FrameReader(files.directory().toString(), codecs == null ? null : codecs.keys());
        }
        try {
            frames.open(fileCodecs, chunk, offset, length, index, file.path(), position);
        } catch (CorruptQueueException e) {
            out.append("DAMAGED: ").append(e.problem());
            if (damage == null) {
                damage = new CorruptQueueException(e.file(), e.position(), e.problem()
                        + "; cq verify lists every damage");
            }
            return false;
        } catch (MissingKeyException e) {
            out.append(String.format("[key id 0x%08x] not decrypted: no key for it", e.keyId()));
            if (missingKey == null) {
                missingKey = e;
            }
            return false;
        }
        out.append('[');
        if (fileCodecs.encrypted()) {
            out.append(String.format("key id 0x%08x, tag ok", frames.keyId()));
        } else if (fileCodecs.checksummed()) {
            out.append("checksum ok");
        }
        if (fileCodecs.compressing()) {
            out.append(fileCodecs.checksummed() || fileCodecs.encrypted() ? ", " : "");
            Compression method = Compression.ofId(frames.method());
            out.append(frames.method() == CodecDescriptor.STORED ? "stored uncompressed"
                    : "compressed " + method + " " + frames.length() + " -> " + frames.storedLength() + " bytes");
        }
        out.append("] ");
        cursor.bindForRead(frames.segment(), frames.offset(), frames.length());
        return true;
    }

    private static String hex(long index) {
        return "0x" + Long.toHexString(index);
    }

}
