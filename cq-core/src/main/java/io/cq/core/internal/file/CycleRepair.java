package io.cq.core.internal.file;

import io.cq.core.QueueRepair;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

/**
 * Cuts a damaged cycle's records at the first record that cannot be read (docs/operations.md, "Damaged files"),
 * for {@code MappedQueue.repair()}: the bytes from there on are zeroed, index entries pointing there are cleared,
 * the hints say where records now end, and a finished cycle gets its end-of-cycle mark there, so tailers go on to
 * the next cycle. Under the write lock, with no tailer reading the range.
 */
public final class CycleRepair {
    private CycleRepair() {
    }

    /** @return what was skipped, or null when the file's records are whole */
    public static QueueRepair.Skipped repair(CycleFile file, boolean finished) {
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
            return null;
        }
        long to = Math.max(written, position);
        file.mapped().blocks().zeroNonZero(position, length);
        file.index().clearFrom(position);
        file.updateHints(position, excerpts);
        if (finished) {
            file.mapped().blocks().reserveExactly(position, position + ExcerptHeaderDescriptor.SIZE);
            file.mapped().putIntRelease(position, ExcerptHeaderDescriptor.END_OF_CYCLE);
            file.mapped().blocks().shrinkTo(position + ExcerptHeaderDescriptor.SIZE);
        }
        return new QueueRepair.Skipped(file.path(), position, to, Math.max(0, published - excerpts));
    }
}
