package io.cq.core.internal.queue;

import io.cq.core.Pretoucher;
import io.cq.core.QueueClosedException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.layout.BlockDescriptor;

/**
 * The {@link Pretoucher}: reserves the blocks ahead of the write position and faults their pages in, with
 * {@code fallocate} (keeping the length) and {@code madvise(MADV_POPULATE_WRITE)}, which change no byte even where an
 * appender writes at the same moment (docs/file-format.md, "Reserving and shrinking").
 */
public final class StorePretoucher implements Pretoucher {
    private static final long PAGE = BlockDescriptor.PAGE;

    private final QueueContext queue;
    private final long lookAheadBytes;
    private long touchedUpTo;
    private long touchedCycle = Long.MIN_VALUE;

    public StorePretoucher(QueueContext queue, long lookAheadBytes) {
        this.queue = queue;
        this.lookAheadBytes = lookAheadBytes;
    }

    @Override
    public void execute() {
        if (queue.queue().isClosed()) {
            throw new QueueClosedException("pretoucher of queue " + queue.describe() + " is closed with its queue");
        }
        CycleFiles files = queue.files();
        long cycle = queue.tableStore().maxCycle();
        if (cycle == CycleFiles.NO_CYCLE) {
            return;
        }
        CycleFile file = files.acquire(cycle);
        if (file == null) {
            return;
        }
        try {
            touchAhead(file);
        } finally {
            files.release(file);
        }
        long now = queue.clock().millis();
        long nextStart = queue.calendar().cycleStartMillis(cycle + 1);
        if (nextStart - now <= Math.min(queue.rollCycle().lengthMillis() / 10, 2_000)) {
            CycleFile next = files.acquireOrCreate(cycle + 1, now);
            try {
                prepare(next, next.dataStart(), next.dataStart() + Math.min(lookAheadBytes, next.blockSize() / 2));
            } finally {
                files.release(next);
            }
        }
    }

    private void touchAhead(CycleFile file) {
        long writePosition = file.writePositionHint();
        if (file.cycle() != touchedCycle) {
            touchedCycle = file.cycle();
            touchedUpTo = 0;
        }
        // Start a page beyond the writer: its own page is present already, and its line is kept out of contention.
        long from = Math.max(touchedUpTo, (writePosition & -PAGE) + PAGE);
        long to = writePosition + lookAheadBytes;
        if (to > from && prepare(file, from, to)) {
            touchedUpTo = to;
        }
    }

    /**
     * Reserves the blocks of {@code [from, to)} and faults their pages in, with native access (both change no
     * byte, and fail with an error rather than a signal where a page cannot be backed). Without it there is
     * nothing safe to do here: reserving would need the write lock, and touching a page that is not reserved
     * would crash the JVM on a full disk, so the appender reserves, and takes its page faults, itself.
     */
    private boolean prepare(CycleFile file, long from, long to) {
        long cycle = file.cycle();
        return file.mapped().blocks().reserveAheadNow(to, () -> queue.tableStore().maxCycle() <= cycle)
                && file.mapped().populate(from, to, false);
    }
}
