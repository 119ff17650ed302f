package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

/**
 * An appender that composes excerpts in a buffer of its own before it takes the write lock, around a
 * {@link StoreAppender} that writes the records: the double-buffered and the codec appender. What they share is their
 * close, which another thread may call while an excerpt is being composed.
 */
abstract class ComposingAppender implements ExcerptAppender {
    final StoreAppender appender;
    final QueueContext queue;

    ComposingAppender(QueueContext queue) {
        this.queue = queue;
        this.appender = new StoreAppender(queue);
    }

    /**
     * Under this appender's monitor, from {@link #close()}: drops an excerpt being composed (nothing of it was
     * written), so that its context's close says so.
     */
    abstract void dropComposed();

    @Override
    public final long lastIndexAppended() {
        return appender.lastIndexAppended();
    }

    @Override
    public final MappedQueue queue() {
        return queue.queue();
    }

    @Override
    public final boolean isClosed() {
        return appender.isClosed();
    }

    /** Synchronized: besides its owner, the queue's close and its sweep of ended threads' appenders may close it. */
    @Override
    public final synchronized void close() {
        if (appender.isClosed()) {
            return;
        }
        dropComposed();
        appender.close();
        queue.resources().remove(this);
    }
}
