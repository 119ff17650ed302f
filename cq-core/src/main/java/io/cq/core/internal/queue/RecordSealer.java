package io.cq.core.internal.queue;

import io.cq.core.QueueException;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.codec.FrameWriter;
import io.cq.core.internal.codec.NonceSerials;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Writes framed excerpts into records for a queue with codecs (docs/file-format.md, "Excerpt codecs"): the
 * {@link CodecAppender}'s and an async queue's drainer's. {@link #frame} compresses, without the write lock where the
 * caller can; {@link #sealInto} checksums or encrypts under it and copies the result into the open record.
 */
public final class RecordSealer {
    private final QueueContext queue;
    private final FileCodecs queueCodecs;
    private final FrameWriter frames;
    private final NonceSerials serials;
    private byte[] body = new byte[256];
    private byte[] viewed;
    private MemorySegment view;

    public RecordSealer(QueueContext queue) {
        this.queue = queue;
        this.queueCodecs = FileCodecs.forNewFiles(queue.codecs());
        this.frames = new FrameWriter(queue.describe(), queue.codecs().keys());
        this.serials = queue.tableStore()::takeNonceSerial;
    }

    /** Frames {@code length} bytes of {@code composed}, which must stay unchanged until sealed. */
    public void frame(byte[] composed, int length) {
        frames.frame(queueCodecs, composed, length);
    }

    /** Frames a copy of {@code length} bytes of {@code source} from {@code offset}: an async buffer's record. */
    public void frame(MemorySegment source, long offset, int length) {
        if (body.length < length + Integer.BYTES) {
            body = new byte[Math.max(length + Integer.BYTES, body.length * 2)];
        }
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, offset, body, 0, length);
        frames.frame(queueCodecs, body, length);
    }

    /**
     * Under the write lock, with {@code a}'s record open in place: seals the frame for the record's index in the file
     * it is in and copies it in.
     *
     * @throws QueueException when that file frames its excerpts otherwise than the queue (it was not made by the
     *                        queue's writers): nothing is written
     */
    public void sealInto(StoreAppender a) {
        FileCodecs fileCodecs = a.file.codecs();
        if (fileCodecs == null || !fileCodecs.sameFormatAs(queueCodecs)) {
            throw new QueueException("cycle file " + a.file.path() + " of queue " + queue.describe() + " frames its "
                    + "excerpts " + (fileCodecs == null ? "with no codecs" : "with " + fileCodecs.codecs().describe())
                    + ", not as the queue does (" + queue.codecs().describe() + "): it was not made by this queue's "
                    + "writers; nothing was appended");
        }
        int length = frames.seal(fileCodecs, a.currentIndex(), serials);
        byte[] sealed = frames.sealed();
        if (sealed != viewed) {
            viewed = sealed;
            view = MemorySegment.ofArray(sealed);
        }
        RecordPlacement.copyComposed(a, view, length, false);
    }
}
