package io.cq.core.internal.inspect;

import io.cq.core.CorruptQueueException;
import io.cq.core.QueueVerification;
import io.cq.core.QueueVerification.Finding;
import io.cq.core.QueueVerification.Severity;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.lock.WriteLockWord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;

/**
 * Reads every cycle file of a queue the way a tailer would, but reports what it meets instead of stopping at it:
 * headers, record headers and lengths, the end-of-cycle marks, the file sizes and every index entry against the
 * record it should point at (docs/file-format.md describes what is expected), and in a file with codecs every
 * excerpt's checksum or tag and compressed frame ({@link FrameChecks}). Never writes.
 */
public final class QueueVerifier {
    private final CycleFiles files;
    /** The queue's codecs in force, with the keys given; what its new files are framed with. */
    private final ExcerptCodecs codecs;
    private final FrameChecks frames;

    private final List<Finding> findings = new ArrayList<>();
    private long excerpts;
    private int filesChecked;

    /** @param codecs the queue's codecs in force, with the keys it was opened with (none: a plain queue) */
    public QueueVerifier(CycleFiles files, ExcerptCodecs codecs) {
        this.files = files;
        this.codecs = codecs;
        this.frames = new FrameChecks(files.directory().toString(), codecs);
    }

    public QueueVerification verify() {
        NavigableSet<Long> cycles = files.cycles();
        for (long cycle : cycles) {
            Path path = files.pathOf(cycle);
            CycleFile file;
            try {
                file = files.acquire(cycle);
            } catch (CorruptQueueException e) {
                filesChecked++;
                damage(e.file(), e.position(), e.problem());
                continue;
            }
            if (file == null) {
                continue;
            }
            filesChecked++;
            try {
                checkReservedHeader(file);
                checkRecords(file, cycle == cycles.last(), sizeOf(file));
            } catch (CorruptQueueException e) {
                damage(e.file(), e.position(), e.problem());
            } finally {
                files.release(file);
            }
        }
        for (FrameChecks.Damage unchecked : frames.notChecked(files.directory())) {
            note(unchecked.file(), unchecked.position(), unchecked.description());
        }
        checkCycleRange();
        for (TableStoreVerifier.Damage found : new TableStoreVerifier(files.tableStore()).verify()) {
            damage(files.tableStore().path(), found.position(), found.description());
        }
        checkStrayFiles(files.directory());
        return new QueueVerification(files.directory(), filesChecked, excerpts, findings);
    }

    /**
     * The table store's cycle range, as a writer checks it before trusting it: a newest cycle whose file is gone
     * (deleted by hand, say) lets readers read on, but no writer opens the queue. A writer creates a cycle's file
     * before it publishes the cycle, so a live writer cannot make this fail.
     */
    private void checkCycleRange() {
        try {
            files.requireValidCycleRange();
        } catch (CorruptQueueException e) {
            damage(e.file(), e.position(), e.problem().replace("; refusing to write from it", "")
                    + "; no writer can open the queue until cq repair --skip-damaged sets it to the newest file");
        }
    }

    private static long sizeOf(CycleFile file) {
        try {
            return Files.size(file.path());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + file.path(), e);
        }
    }

    /**
     * The header's reserved ranges (docs/file-format.md, "Cycle files") were written as zeros with the header, and
     * nothing writes there since; so is the padding between the primary index and the records. A version 2 file
     * (excerpt codecs) holds its codec fields at the start of the range after the sequence, and its key salt there
     * when encrypted (docs/file-format.md, "Excerpt codecs"); the rest of that range stays zero, up to the open-record
     * hint.
     */
    private void checkReservedHeader(CycleFile file) {
        long primaryEnd = IndexDescriptor.primaryEntryOffset(file.index().indexCount());
        long afterSequence = CycleHeaderDescriptor.SEQUENCE_OFFSET + Long.BYTES;
        FileCodecs fileCodecs = file.codecs();
        long[][] afterSequenceRanges = fileCodecs == null
                ? new long[][] {{afterSequence, CycleHeaderDescriptor.OPEN_RECORD_OFFSET}}
                : new long[][] {{CodecDescriptor.FILE_THRESHOLD_OFFSET + Integer.BYTES,
                    CodecDescriptor.FILE_KEY_SALT_OFFSET}, {fileCodecs.encrypted() ? CodecDescriptor.FILE_CODECS_END
                    : CodecDescriptor.FILE_KEY_SALT_OFFSET, CycleHeaderDescriptor.OPEN_RECORD_OFFSET}};
        List<long[]> ranges = new ArrayList<>();
        ranges.add(new long[] {CycleHeaderDescriptor.INDEX_SPACING_OFFSET + Integer.BYTES,
            CycleHeaderDescriptor.BLOCK_SIZE_OFFSET});
        ranges.addAll(List.of(afterSequenceRanges));
        ranges.add(new long[] {CycleHeaderDescriptor.PAGE_HINT_OFFSET + Long.BYTES,
            IndexDescriptor.PRIMARY_INDEX_OFFSET});
        ranges.add(new long[] {primaryEnd, file.dataStart()});
        for (long[] range : ranges) {
            long nonZero = UnwrittenArea.firstNonZero(file, range[0], range[1]);
            if (nonZero >= 0) {
                damage(file.path(), nonZero, "non-zero bytes at position " + nonZero + " in a reserved range of the "
                        + "cycle file's header (" + range[0] + " to " + range[1] + "), which the format keeps zero");
            }
        }
    }

    /**
     * Files hold their header, then records up to a last header word (free, or the end-of-cycle mark); anything
     * beyond is reserved space. A file that ends before that was cut short.
     */
    private void checkRecords(CycleFile file, boolean newest, long sizeWhenListed) {
        IndexVerifier index = new IndexVerifier(file);
        try {
            checkRecords(file, newest, sizeWhenListed, index);
        } finally {
            for (FrameChecks.Damage found : frames.takeDamage()) {
                damage(found.file(), found.position(), found.description());
            }
            for (IndexVerifier.Damage found : index.findings()) {
                damage(file.path(), found.position(), found.description());
            }
            if (index.left() > 0) {
                damage(file.path(), index.findings().getLast().position(), "and " + index.left() + " more wrong "
                        + "index slots or entries after it");
            }
        }
    }

    private void checkRecords(CycleFile file, boolean newest, long sizeWhenListed, IndexVerifier index) {
        long size = sizeWhenListed;
        long position = file.dataStart();
        long sequence = 0;
        while (true) {
            if (newest && position == size) {
                // The newest cycle's file may end right where its next record goes: just created, with nothing
                // reserved yet. Its writer extends it before writing there.
                finishIndex(file, index, newest, position, ExcerptHeaderDescriptor.EMPTY, sequence);
                checkEndOfData(file, true, position, ExcerptHeaderDescriptor.EMPTY, sequence);
                return;
            }
            if (position + ExcerptHeaderDescriptor.SIZE > size && newest) {
                long now = sizeOf(file);
                if (now > size) {
                    size = now; // a live writer extended the newest file since its size was read
                    continue;
                }
            }
            if (position + ExcerptHeaderDescriptor.SIZE > size) {
                damage(file.path(), position, "the file ends at " + size + " bytes, before the header word of "
                        + "the next record at " + position + ": it was cut short; the " + sequence
                        + " excerpts before it are readable");
                return;
            }
            int header = file.headerAt(position);
            boolean record = (ExcerptHeaderDescriptor.isData(header) || ExcerptHeaderDescriptor.isMeta(header))
                    && !ExcerptHeaderDescriptor.isEndOfCycle(header);
            long recordEnd = position + ExcerptHeaderDescriptor.SIZE + ExcerptHeaderDescriptor.length(header);
            if (record && recordEnd > size && newest) {
                long now = sizeOf(file);
                if (now > size) {
                    size = now;
                    continue;
                }
            }
            if (record && recordEnd > size) {
                damage(file.path(), position, "the record of " + ExcerptHeaderDescriptor.length(header) + " bytes at "
                        + position + " ends past the end of the file (" + size + " bytes): it was cut short; the "
                        + sequence + " excerpts before it are readable");
                return;
            }
            if (ExcerptHeaderDescriptor.isData(header)) {
                index.onExcerpt(sequence, position);
                if (file.codecs() != null) {
                    frames.check(file, position, ExcerptHeaderDescriptor.length(header),
                            files.rollCycle().toIndex(file.cycle(), sequence));
                }
                position = file.next(position, header);
                sequence++;
                excerpts++;
            } else if (ExcerptHeaderDescriptor.isEndOfCycle(header)) {
                finishIndex(file, index, false, position, header, sequence);
                checkUnwrittenArea(file, position, header, position + ExcerptHeaderDescriptor.SIZE, size);
                return;
            } else if (ExcerptHeaderDescriptor.isMeta(header)) {
                if (index.isIndexBlock(ExcerptHeaderDescriptor.length(header))) {
                    index.onIndexBlock(position);
                }
                position = file.next(position, header);
            } else if (header == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isWorking(header)) {
                if (!ExcerptHeaderDescriptor.isFree(header) || header == ExcerptHeaderDescriptor.free(sequence)) {
                    // Where the records' end is in doubt (a free mark counting otherwise), so is what is unused.
                    finishIndex(file, index, newest, position, header, sequence);
                }
                checkEndOfData(file, newest, position, header, sequence);
                return;
            } else {
                damage(file.path(), position, "expected a record header, found "
                        + ExcerptHeaderDescriptor.describe(header)
                        + "; the " + (sequence) + " excerpts before it are readable, nothing after it is");
                return;
            }
        }
    }

    /**
     * Where the records of a cycle end without an end-of-cycle mark. Normal only in the newest cycle: tailers wait
     * there for more, so in an older cycle it is a hole that stops every reader for good (an older cycle always gets
     * its mark before a newer one is published). Records written beyond it (the file's write hint says so) are
     * unreachable.
     */
    private void checkEndOfData(CycleFile file, boolean newest, long position, int header, long sequence) {
        boolean working = ExcerptHeaderDescriptor.isWorking(header) && !ExcerptHeaderDescriptor.isFree(header);
        if (ExcerptHeaderDescriptor.isFree(header) && header != ExcerptHeaderDescriptor.free(sequence)) {
            damage(file.path(), position, "the free mark at the end of the records counts "
                    + ExcerptHeaderDescriptor.length(header) + " excerpts before it (modulo 2^29), but " + sequence
                    + " were found: a damaged record length hid or merged some; the " + sequence
                    + " excerpts before it are readable");
            return;
        }
        if (working && ExcerptHeaderDescriptor.length(header) > file.maxExcerptSize()) {
            damage(file.path(), position, "expected a record header, found " + ExcerptHeaderDescriptor.describe(header)
                    + " (longer than the file's largest excerpt); the " + sequence
                    + " excerpts before it are readable");
            return;
        }
        if (!newest) {
            damage(file.path(), position, (working ? "an unfinished excerpt" : "the end of the written data")
                    + " without an end-of-cycle mark in a cycle older than the newest: every tailer stops here for "
                    + "good "
                    + "and never reaches the later cycles; the " + sequence + " excerpts before it are readable");
            return;
        }
        long hint = file.writePositionHint();
        if (file.headerAt(position) != header) {
            return; // a live writer published here meanwhile: the queue grew, nothing is wrong
        }
        if (hint > position + ExcerptHeaderDescriptor.SIZE) {
            damage(file.path(), position, (working ? "an unfinished excerpt" : "an empty record header")
                    + " where the file says records were written up to position " + hint
                    + ": the records after it are unreachable; the " + sequence + " excerpts before it are readable");
            return;
        }
        if (!working) {
            checkAfterTheEnd(file, position, header);
        } else if (leftByAStoppedWriter(file, position, header)) {
            noteUnfinished(file, position);
        }
    }

    /**
     * Whether the record at {@code position} is still as it was read while no live process holds the write lock: its
     * writer stopped. The header is read after the lock: a live writer may have published and let go of it since.
     */
    private boolean leftByAStoppedWriter(CycleFile file, long position, int header) {
        WriteLockWord lock = new WriteLockWord(files.tableStore());
        long owner = lock.owner();
        return (owner == LockWordDescriptor.FREE || !lock.isHolderProcessAlive(owner))
                && file.headerAt(position) == header;
    }

    private void noteUnfinished(CycleFile file, long position) {
        note(file.path(), position, "an excerpt left unfinished by a writer that stopped while writing it: it was "
                + "never published, tailers stop before it and the next append writes over it");
    }

    /**
     * The newest cycle's records end at the free mark (or a word of 0). A writer keeps the free mark in the header
     * while it writes the record after it and says where it opened the record on the hints' line first
     * (docs/file-format.md, "Appending", step 5): bytes of that record are an excerpt being written while a live
     * process holds the write lock, and one a writer never finished otherwise. Any other bytes are damage.
     */
    private void checkAfterTheEnd(CycleFile file, long position, int header) {
        long from = position + ExcerptHeaderDescriptor.SIZE;
        long nonZero = UnwrittenArea.firstNonZero(file, from, file.mapped().size());
        if (nonZero < 0 || !UnwrittenArea.ofOpenRecord(file, position, nonZero)) {
            checkUnwrittenArea(file, position, header, from, file.mapped().size());
            return;
        }
        // Not published meanwhile, not being written now, and not rolled back (its bytes zeroed) since the first look.
        if (leftByAStoppedWriter(file, position, header)
                && UnwrittenArea.firstNonZero(file, from, file.mapped().size()) >= 0) {
            noteUnfinished(file, position);
        }
    }

    /**
     * After the last record (its free header word, or the end-of-cycle mark) nothing has been written: every byte up
     * to the file's end is zero. Bytes there would be read as records once an appender reaches them. A live writer
     * that publishes or opens a record at {@code position} meanwhile is not damage: the header and the open-record
     * hint are read after the bytes.
     */
    private void checkUnwrittenArea(CycleFile file, long position, int header, long from, long size) {
        long nonZero = UnwrittenArea.firstNonZero(file, from, size);
        if (nonZero < 0 || file.headerAt(position) != header) {
            return;
        }
        // A writer may have opened a record here since the first look (not after a finished cycle's mark).
        if (header != ExcerptHeaderDescriptor.END_OF_CYCLE && UnwrittenArea.ofOpenRecord(file, position, nonZero)) {
            return;
        }
        damage(file.path(), nonZero, "non-zero bytes at position " + nonZero + " after the last record (which "
                + "ends at " + position + "): nothing was written there, and an appender would write over them "
                + "or a reader take them for records");
    }

    /**
     * The records end at {@code position} after {@code excerpts}: the index beyond them must be unused. In the newest
     * cycle a live writer may have gone on meanwhile, which is no damage: its header word there has changed.
     */
    private static void finishIndex(CycleFile file, IndexVerifier index, boolean newest, long position, int header,
                                    long excerpts) {
        index.finish(excerpts, () -> !newest || (file.headerAt(position) == header
                && file.sequenceHint() <= excerpts && file.writePositionHint() <= position));
    }

    private void checkStrayFiles(Path directory) {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*.tmp")) {
            for (Path stray : stream) {
                note(stray, -1, "a temporary file, left by a process that died while creating or copying a file "
                        + "(or being made now); deleting it loses nothing");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory,
                "*" + CycleFiles.SUFFIX + CycleFiles.DAMAGED_SUFFIX + "*")) {
            for (Path aside : stream) {
                note(aside, -1, "a cycle file a repair set aside, its header being damaged: its excerpts are not in "
                        + "the queue; move it elsewhere once nobody needs its bytes");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*" + CycleFiles.SUFFIX)) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                if (files.calendar().parseCycle(name.substring(0, name.length() - CycleFiles.SUFFIX.length()))
                        .isEmpty()) {
                    note(file, -1, "the name is not a cycle of the queue's roll cycle " + files.rollCycle().name()
                            + ", so readers ignore the file");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    private void damage(Path file, long position, String description) {
        findings.add(new Finding(Severity.DAMAGE, file, position, description));
    }

    private void note(Path file, long position, String description) {
        findings.add(new Finding(Severity.NOTE, file, position, description));
    }
}
