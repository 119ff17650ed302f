package io.cq.core.internal.queue;

import io.cq.core.CycleCalendar;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.named.NamedTailerSlots;
import io.cq.core.internal.table.TableStore;

import java.time.Clock;
import java.util.Set;

/**
 * What the appenders and tailers of one open queue share: its files, its settled configuration, and the set of
 * appenders and tailers still open (closed with the queue), and what its appenders have published.
 *
 * @param codecs the queue's excerpt codecs in force, with the keys given (docs/file-format.md, "Excerpt codecs")
 */
public record QueueContext(MappedQueue queue, CycleFiles files, TableStore tableStore, NamedTailerSlots namedTailers,
                           RollCycle rollCycle, Clock clock, CycleClock cycleClock,
                           long writeLockCheckNanos, long writeLockTimeoutNanos, boolean syncEachAppend,
                           Retention retention,
                           Set<AutoCloseable> resources, AppendCounter appended, ExcerptCodecs codecs) {
    /** A write lock with a token of its own, waiting as the queue's settings say. */
    public WriteLock newWriteLock() {
        return new WriteLock(tableStore, writeLockCheckNanos, writeLockTimeoutNanos);
    }

    /** A write lock that gives up after {@code timeoutNanos}, for background work that must not wait long. */
    WriteLock newWriteLock(long timeoutNanos) {
        return new WriteLock(tableStore, Math.min(writeLockCheckNanos, timeoutNanos / 2), timeoutNanos);
    }

    /** When the queue's cycles begin. */
    public CycleCalendar calendar() {
        return files.calendar();
    }

    public String describe() {
        return files.directory().toString();
    }
}
