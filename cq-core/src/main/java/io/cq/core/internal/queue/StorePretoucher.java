package io.cq.core.internal.queue;

import io.cq.core.Pretoucher;
import io.cq.core.QueueClosedException;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;

/**
 * The {@link Pretoucher}. Touching is a compare-and-set of 0 by 0 on the first word of each page: it makes the page
 * present and writable but changes nothing, even if an appender writes there at the same moment.
 */
public final class StorePretoucher implements Pretoucher {
    private static final long PAGE = 4096;

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
        long nextStart = queue.rollCycle().cycleStartMillis(cycle + 1);
        if (nextStart - now <= Math.min(queue.rollCycle().lengthMillis() / 10, 2_000)) {
            CycleFile next = files.acquireOrCreate(cycle + 1, now);
            try {
                touchPages(next, next.dataStart(), Math.min(lookAheadBytes, next.blockSize() / 2));
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
        if (to > from) {
            touchPages(file, from, to - from);
            touchedUpTo = to;
        }
    }

    private static void touchPages(CycleFile file, long from, long length) {
        long end = from + length;
        for (long page = (from + PAGE - 1) & -PAGE; page < end; page += PAGE) {
            int index = file.mapped().chunkIndex(page);
            MemorySegment chunk = file.mapped().chunk(index);
            Memory.casInt(chunk, page - file.mapped().chunkStart(index), 0, 0);
        }
    }
}
