package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.TableStore;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Marks written under the write lock at the end of a cycle file's records. */
public final class CycleFileMarks {
    static final long NO_CYCLE = TableStore.NO_CYCLE;

    private CycleFileMarks() {
    }

    /**
     * Before {@code target} is published: finishes the previous newest cycle, and any file created early (by a
     * pretoucher) for a cycle between the two that never became current, so no tailer waits in it.
     *
     * @return the files this call finished, for {@code UnusedIndexRelease} once {@code target} is
     *         published
     */
    public static List<Path> finishBefore(CycleFiles files, long previousNewest, long target) {
        List<Path> finished = new ArrayList<>(1);
        if (previousNewest != NO_CYCLE) {
            finish(files, previousNewest, finished);
        }
        for (long cycle : files.unstartedCycles()) {
            if (cycle < target && cycle > previousNewest) {
                finish(files, cycle, finished);
            }
        }
        return finished;
    }

    /** Closes a cycle with the end-of-cycle mark, so tailers move on to the next file. */
    private static void finish(CycleFiles files, long cycle, List<Path> finished) {
        files.withFile(cycle, file -> {
            try {
                file.checkTailForAppending();
            } catch (CorruptQueueException e) {
                // Left as it is, for cq verify and repair (cutting it at an end its damage made up could lose what
                // follows), and without a warning that would repeat the refusal that met the damage (docs/cli.md).
                Log.debug(CycleFileMarks.class, "did not shrink the damaged cycle file {0}: {1}", file.path(),
                        e.problem());
                return;
            }
            Position end = new Position();
            file.locateEnd(end);
            int header = file.headerAt(end.position());
            if (header == ExcerptHeaderDescriptor.END_OF_CYCLE) {
                return;
            }
            discardUnfinished(file, end.position(), header);
            long after = end.position() + ExcerptHeaderDescriptor.SIZE;
            file.mapped().blocks().reserveExactly(end.position(), after);
            file.mapped().putIntRelease(end.position(), ExcerptHeaderDescriptor.END_OF_CYCLE);
            // Nobody writes to a finished cycle again, and readers stop at its mark: it keeps only what it holds.
            file.mapped().blocks().shrinkTo(after);
            finished.add(file.path());
        });
    }

    /**
     * Shrinks the newest cycle's file to its records, for a closing last writer that holds the write lock: no
     * other process writes the queue, and any that starts must take the lock and reserve again before it writes
     * (docs/file-format.md, "Reserving and shrinking"). Keeps the free header word after the last record, where
     * tailers wait.
     */
    public static void shrinkNewest(CycleFiles files, long cycle) {
        // Files a pretoucher created for cycles not started yet hold a header and what it reserved ahead.
        for (long unstarted : files.unstartedCycles()) {
            files.withFile(unstarted, early -> early.mapped().blocks().shrinkTo(early.dataStart()));
        }
        try {
            files.withFile(cycle, file -> {
                file.checkTailForAppending();
                Position end = new Position();
                file.locateEnd(end);
                discardUnfinished(file, end.position(), file.headerAt(end.position()));
                file.mapped().blocks().shrinkTo(end.position() + ExcerptHeaderDescriptor.SIZE);
            });
        } catch (CorruptQueueException e) {
            // A damaged file (its header, a record cut by its end, a bad index pointer) is left as it is, for cq
            // verify and repair: cut at an end its damage made up, it could lose what follows. No warning either:
            // it would repeat the refusal that met the damage (docs/cli.md, one line per refusal).
            Log.debug(CycleFileMarks.class, "did not shrink the damaged cycle file {0}: {1}", e.file(), e.problem());
        }
    }

    /**
     * The write lock is held, so a record still marked in progress was left by a writer that stopped while
     * holding it: it was never published and no reader has seen it. Its space is reused.
     */
    public static void discardUnfinished(CycleFile file, long position, int header) {
        if (ExcerptHeaderDescriptor.isWorking(header) && !ExcerptHeaderDescriptor.isFree(header)) {
            Log.warning(CycleFileMarks.class,
                    "repaired {1}: discarded the unfinished excerpt at position {0}, left by a "
                    + "writer that died while writing it; no reader had seen it", String.valueOf(position),
                    file.path());
            file.mapped().putIntRelease(position, ExcerptHeaderDescriptor.EMPTY);
        }
    }
}
