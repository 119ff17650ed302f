package io.cq.core.internal.queue;

import io.cq.core.ExcerptBytes;
import io.cq.core.WriteContext;
import io.cq.core.internal.memory.ExcerptReservation;

/**
 * The one write context of a {@link StoreAppender}, written in place under the write lock, and its cursor's way to
 * reserve further blocks: one class for both, and not a method reference (each class is about 0.15 ms of a new
 * process's way to its first excerpt, and the first method reference of a JVM generates code).
 */
final class AppendContext implements WriteContext, ExcerptReservation {
    private final StoreAppender appender;
    boolean open;
    boolean rollback;

    AppendContext(StoreAppender appender) {
        this.appender = appender;
    }

    @Override
    public ExcerptBytes bytes() {
        return appender.cursor();
    }

    @Override
    public long reserveUpTo(long end) {
        return appender.reserveForCursor(end);
    }

    @Override
    public long index() {
        return appender.currentIndex();
    }

    @Override
    public void rollbackOnClose() {
        rollback = true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        appender.finishRecord(rollback);
    }
}
