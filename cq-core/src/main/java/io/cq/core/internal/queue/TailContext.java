package io.cq.core.internal.queue;

import io.cq.core.ExcerptBytes;
import io.cq.core.ReadContext;

/**
 * A tailer's one read context, reused for every excerpt: closing it commits the read (moves the tailer past the
 * excerpt and, for a named tailer, persists the position) unless it was rolled back.
 */
final class TailContext implements ReadContext {
    private final StoreTailer tailer;
    boolean open;
    boolean present;
    boolean rollback;

    TailContext(StoreTailer tailer) {
        this.tailer = tailer;
    }

    @Override
    public boolean isPresent() {
        return present;
    }

    @Override
    public ExcerptBytes bytes() {
        return tailer.cursor();
    }

    @Override
    public long index() {
        return present ? tailer.currentIndex() : -1;
    }

    @Override
    public void rollbackOnClose() {
        rollback = true;
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        if (present && !rollback) {
            tailer.commit();
        }
        // The cursor is left bound: it only reads, and the memory stays mapped while the tailer holds the file.
        present = false;
    }
}
