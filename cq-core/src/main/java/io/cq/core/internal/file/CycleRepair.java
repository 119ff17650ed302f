package io.cq.core.internal.file;

import io.cq.core.QueueRepair;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

/**
 * Cuts a damaged cycle's records at the first record that cannot be read (docs/operations.md, "Damaged files"),
 * for {@code MappedQueue.repair()}: the bytes from there on are zeroed, index entries pointing there are cleared,
 * the hints say where records now end, and a finished cycle gets its end-of-cycle mark there, so tailers go on to
 * the next cycle. The index is set to what the records say in every file, whole or cut: a primary slot or entry
 * pointing elsewhere than at its record keeps appenders out (docs/file-format.md, "Index"). Under the write lock,
 * with no tailer reading the range.
 */
public final class CycleRepair {
    private CycleRepair() {
    }

    /**
     * What a file's repair did.
     *
     * @param skipped the range cut, or null when the file's records are whole
     * @param indexRebuilt where the index of a file with whole records was set right, or null when it was right
     */
    public record Outcome(QueueRepair.Skipped skipped, QueueRepair.IndexRebuilt indexRebuilt) {
    }

    public static Outcome repair(CycleFile file, boolean finished) {
        long length = file.mapped().size();
        long position = file.dataStart();
        long excerpts = 0;
        while (position + ExcerptHeaderDescriptor.SIZE <= length) {
            int header = file.headerAt(position);
            boolean record = ExcerptHeaderDescriptor.isData(header)
                    || (ExcerptHeaderDescriptor.isMeta(header) && !ExcerptHeaderDescriptor.isEndOfCycle(header));
            if (!record) {
                break;
            }
            int size = ExcerptHeaderDescriptor.length(header);
            if (size > file.maxExcerptSize() || position + ExcerptHeaderDescriptor.SIZE + size > length) {
                break;
            }
            excerpts += ExcerptHeaderDescriptor.isData(header) ? 1 : 0;
            position = ExcerptHeaderDescriptor.next(position, size);
        }
        int end = position + ExcerptHeaderDescriptor.SIZE <= length ? file.headerAt(position) : -1;
        long written = file.writePositionHint();
        long published = file.sequenceHint();
        boolean whole = finished
                ? end == ExcerptHeaderDescriptor.END_OF_CYCLE && excerpts >= published
                : (end == ExcerptHeaderDescriptor.EMPTY || ExcerptHeaderDescriptor.isWorking(end))
                        && (!ExcerptHeaderDescriptor.isFree(end) || end == ExcerptHeaderDescriptor.free(excerpts))
                        && written <= position && excerpts >= published;
        if (whole) {
            long changed = file.index().rebuild(position);
            return new Outcome(null, changed < 0 ? null : new QueueRepair.IndexRebuilt(file.path(), changed));
        }
        long to = Math.max(written, position);
        file.mapped().blocks().zeroNonZero(position, length);
        file.index().rebuild(position);
        file.updateHints(position, excerpts);
        if (finished) {
            file.mapped().blocks().reserveExactly(position, position + ExcerptHeaderDescriptor.SIZE);
            file.mapped().putIntRelease(position, ExcerptHeaderDescriptor.END_OF_CYCLE);
            file.mapped().blocks().shrinkTo(position + ExcerptHeaderDescriptor.SIZE);
        }
        return new Outcome(new QueueRepair.Skipped(file.path(), position, to, Math.max(0, published - excerpts)), null);
    }
}
