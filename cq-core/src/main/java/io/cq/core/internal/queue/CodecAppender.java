package io.cq.core.internal.queue;

import io.cq.core.ExcerptBytes;
import io.cq.core.WriteContext;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.memory.ComposeBuffer;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.memory.Utf8;

/**
 * The appender of a queue with codecs (docs/file-format.md, "Excerpt codecs"): an excerpt is composed in a buffer of
 * its own, without the write lock; on close it is compressed, still without the lock, then the lock is taken, the
 * frame checksummed or encrypted for the index it gets, and copied into a record of its {@link StoreAppender}. A class
 * of its own, chosen when the appender is made, so that plain queues' appenders check nothing per append.
 */
final class CodecAppender extends ComposingAppender {
    private final ComposeBuffer buffer;
    private final SegmentCursor composing = new SegmentCursor();
    private final RecordSealer sealer;
    private final ComposedContext context = new ComposedContext();

    CodecAppender(QueueContext queue) {
        super(queue);
        long blockSize = queue.queue().settings().blockSize();
        FileCodecs codecs = FileCodecs.forNewFiles(queue.codecs());
        // What the user may write: the largest record less what the frame adds.
        this.buffer = new ComposeBuffer(BlockDescriptor.maxExcerptSize(blockSize) - codecs.overhead(), blockSize);
        this.sealer = new RecordSealer(queue);
    }

    @Override
    public WriteContext writingDocument() {
        requireNoOpenContext();
        buffer.bind(composing);
        context.composing = true;
        context.inPlace = false;
        context.rollback = false;
        return context;
    }

    private void requireNoOpenContext() {
        if (context.composing) {
            throw new IllegalStateException("this appender already has an open write context: close it first");
        }
        appender.requireNoOpenContext();
    }

    /** The text's UTF-8 bytes and nothing else, as a plain appender writes it. */
    @Override
    public long writeText(CharSequence text) {
        try (WriteContext dc = writingDocument()) {
            try {
                Utf8.writeText(composing, text);
            } catch (RuntimeException | Error e) {
                // Whatever failed part-way (too large, a full disk, a text changed under us), nothing is published.
                dc.rollbackOnClose();
                throw e;
            }
        }
        return appender.lastIndexAppended();
    }


    @Override
    void dropComposed() {
        if (context.composing && !context.inPlace) {
            context.composing = false;
            context.droppedByClose = true;
            composing.unbind();
        }
    }

    /** Takes the write lock and opens the record the excerpt goes to; the excerpt is still composed in the buffer. */
    private void openRecord() {
        try {
            ComposedRecord.open(appender, queue);
        } catch (RuntimeException | Error e) {
            composing.unbind();
            context.composing = false;
            throw e;
        }
        context.inPlace = true;
    }

    /** An excerpt composed in the buffer; its record is opened on close, or when its index is asked for. */
    private final class ComposedContext implements WriteContext {
        boolean composing;
        /** The record is open and the lock held: the index was asked for. */
        boolean inPlace;
        boolean rollback;
        boolean droppedByClose;

        @Override
        public ExcerptBytes bytes() {
            return CodecAppender.this.composing;
        }

        /** Known only under the lock: taken here, and held until close. */
        @Override
        public long index() {
            if (composing && !inPlace) {
                openRecord();
            }
            return appender.currentIndex();
        }

        @Override
        public void rollbackOnClose() {
            rollback = true;
        }

        @Override
        public boolean isOpen() {
            return composing;
        }

        @Override
        public void close() {
            if (!composing) {
                if (droppedByClose) {
                    droppedByClose = false;
                    throw ComposedRecord.closedWhileComposing(queue);
                }
                return;
            }
            SegmentCursor cursor = CodecAppender.this.composing;
            boolean discard = rollback || cursor.failed();
            int length = (int) cursor.position();
            cursor.unbind();
            try {
                if (discard) {
                    if (inPlace) {
                        appender.context().rollbackOnClose();
                    }
                } else {
                    try {
                        // Compressed before the lock is taken, unless the index was asked for and the lock is held.
                        sealer.frame(buffer.array(), length);
                        if (!inPlace) {
                            openRecord();
                        }
                        sealer.sealInto(appender);
                    } catch (RuntimeException | Error e) {
                        if (inPlace) {
                            appender.context().rollbackOnClose();
                        }
                        throw e;
                    }
                }
            } finally {
                composing = false;
                buffer.releaseIfLarge();
                if (inPlace) {
                    inPlace = false;
                    appender.context().close();
                }
            }
        }
    }
}
