package io.cq.core;

import io.cq.core.codec.ExcerptCodecs;

/**
 * A queue was opened asking for other codecs than it was created with. A queue's codecs are fixed when it is
 * created and recorded in its files, so that every process reads them alike: open it without choosing codecs (it
 * reads and writes with its own), or copy it into a new queue. Nothing was opened.
 */
public final class CodecsMismatchException extends QueueException {
    private final ExcerptCodecs inForce;

    public CodecsMismatchException(String message, ExcerptCodecs inForce) {
        super(message);
        this.inForce = inForce;
    }

    /** The codecs the queue was created with. */
    public ExcerptCodecs codecsInForce() {
        return inForce;
    }
}
