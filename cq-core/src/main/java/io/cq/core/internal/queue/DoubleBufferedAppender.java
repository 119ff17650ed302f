package io.cq.core.internal.queue;

import io.cq.core.ExcerptBytes;
import io.cq.core.WriteContext;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.memory.ComposeBuffer;

/**
 * A double-buffered appender (docs/user-guide.md): when another writer holds the write lock, the excerpt is composed
 * in a buffer of its own meanwhile and copied into a record under the lock when its context closes (or is asked its
 * index). When the lock is free it writes in place through its {@link StoreAppender}, whose context it hands out:
 * a class of its own, chosen when the appender is made, so that the plain appender checks no flag per append.
 */
final class DoubleBufferedAppender extends ComposingAppender {
    /**
     * The buffer, for the largest excerpt of the queue's block size, and the context written into it: made the first
     * time they are needed, so that their classes are not loaded on the path to a first excerpt.
     */
    private ComposeBuffer buffer;
    private BufferedContext buffered;

    DoubleBufferedAppender(QueueContext queue) {
        super(queue);
    }

    @Override
    public WriteContext writingDocument() {
        requireNoOpenContext();
        if (appender.lock().tryAcquire()) {
            return appender.openInPlace(true);
        }
        // Another writer holds the lock: compose the excerpt meanwhile, copy it in under the lock on close.
        if (buffered == null) {
            long blockSize = queue.queue().settings().blockSize();
            buffer = new ComposeBuffer(BlockDescriptor.maxExcerptSize(blockSize), blockSize);
            buffered = new BufferedContext();
        }
        buffer.bind(appender.cursor());
        buffered.buffering = true;
        buffered.rollback = false;
        return buffered;
    }

    private void requireNoOpenContext() {
        if (buffered != null && buffered.isOpen()) {
            throw new IllegalStateException("this appender already has an open write context: close it first");
        }
        appender.requireNoOpenContext();
    }

    /** In place even when double-buffered: the text is encoded straight into the record. */
    @Override
    public long writeText(CharSequence text) {
        requireNoOpenContext();
        return appender.writeText(text);
    }

    /** In place: a copy of a ready payload gains nothing from a buffer. */
    @Override
    public long writeBytes(byte[] bytes) {
        requireNoOpenContext();
        return appender.writeBytes(bytes);
    }

    /** Nothing of a buffering context was written to the queue yet: its excerpt is dropped, and its close says so. */
    @Override
    void dropComposed() {
        if (buffered != null && buffered.buffering) {
            buffered.buffering = false;
            buffered.droppedByClose = true;
            appender.cursor().unbind();
        }
    }

    /**
     * Takes the write lock and copies what the buffer holds into a new record, from which the context goes on in
     * place. When no record could be prepared the context is closed and the lock released; when the copy fails (the
     * excerpt is larger than the file allows, the disk is full) the record is discarded on close.
     */
    private void copyBufferIn() {
        long length = appender.cursor().position();
        // A write that failed while buffering (too large, no memory) fails the excerpt as it would in place:
        // binding the cursor to the record below forgets the failure, the flag does not.
        boolean rollback = buffered.rollback || appender.cursor().failed();
        buffered.buffering = false;
        try {
            ComposedRecord.open(appender, queue);
        } catch (RuntimeException | Error e) {
            appender.cursor().unbind();
            throw e;
        }
        WriteContext record = appender.context();
        buffered.inPlace = true;
        if (rollback) {
            record.rollbackOnClose();
        }
        try {
            RecordPlacement.copyComposed(appender, buffer.segment(), length, rollback);
        } catch (RuntimeException | Error e) {
            record.rollbackOnClose();
            throw e;
        } finally {
            buffer.releaseIfLarge();
        }
    }

    /**
     * The context of an excerpt composed in the buffer, without the lock, until {@link #close()} or {@link #index()};
     * from then on it is the in-place appender's context.
     */
    private final class BufferedContext implements WriteContext {
        boolean buffering;
        /** Copied in: the in-place appender's context is open for this excerpt. */
        boolean inPlace;
        boolean rollback;
        /** The appender was closed (by another thread) while this context was buffering: its excerpt is lost. */
        boolean droppedByClose;

        @Override
        public ExcerptBytes bytes() {
            return appender.cursor();
        }

        /** Known only under the lock: a buffering context takes it here and goes on in place. */
        @Override
        public long index() {
            if (buffering) {
                copyBufferIn();
            }
            return appender.currentIndex();
        }

        @Override
        public void rollbackOnClose() {
            if (inPlace) {
                appender.context().rollbackOnClose();
            } else {
                rollback = true;
            }
        }

        @Override
        public boolean isOpen() {
            return buffering || inPlace && appender.context().isOpen();
        }

        @Override
        public void close() {
            if (inPlace) {
                inPlace = false;
                appender.context().close();
                return;
            }
            if (!buffering) {
                if (droppedByClose) {
                    droppedByClose = false;
                    throw ComposedRecord.closedWhileComposing(queue);
                }
                return;
            }
            if (rollback || appender.cursor().failed()) {
                buffering = false;
                appender.cursor().unbind();
                buffer.releaseIfLarge();
                return;
            }
            try {
                copyBufferIn();
            } catch (RuntimeException | Error e) {
                if (inPlace) {
                    close();
                }
                throw e;
            }
            close();
        }
    }
}
