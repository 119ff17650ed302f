package io.cq.core.internal.memory;

import io.cq.core.ExcerptTooLargeException;

/**
 * The errors of {@link SegmentCursor}, built here so that its reads and writes stay short enough to inline: this
 * class loads only when something is refused.
 */
final class CursorErrors {
    private CursorErrors() {
    }

    static IndexOutOfBoundsException positionOutside(long newPosition, long limit) {
        return new IndexOutOfBoundsException("position " + newPosition + " is outside the excerpt's 0.." + limit);
    }

    static RuntimeException readLimitRefused(boolean writing, long newLimit, long position, long readLength) {
        if (writing) {
            return new IllegalStateException("a read limit applies to reading; this cursor is writing an excerpt");
        }
        return new IndexOutOfBoundsException("read limit " + newLimit + " is outside " + position + ".." + readLength
                + " (the position and the excerpt's length)");
    }

    /**
     * @param bound           false once its context was closed (or before one opened)
     * @param asyncBufferSize non-zero when the excerpt's limit is an async buffer's, which the error then names
     */
    static RuntimeException writeRefused(boolean bound, boolean writing, long required, long limit, long blockSize,
                                         long asyncBufferSize) {
        if (!bound) {
            // Not a size problem, whatever the limit of 0 says.
            return new IllegalStateException("the context of this cursor is closed: open another with "
                    + "writingDocument() to write an excerpt");
        }
        if (!writing) {
            return new IllegalStateException("this excerpt is being read; it cannot be written to");
        }
        return asyncBufferSize > 0 ? ExcerptTooLargeException.ofAsyncBuffer(required, limit, asyncBufferSize)
                : new ExcerptTooLargeException(required, limit, blockSize);
    }

    static IndexOutOfBoundsException offsetOutside(long offset, int bytes, long end, boolean write) {
        return new IndexOutOfBoundsException(bytes + " bytes at offset " + offset + " are outside the excerpt's 0.."
                + end + (write ? " (absolute writes must lie below the position)" : ""));
    }

    static IndexOutOfBoundsException readOutside(long bytes, long position, long limit) {
        return new IndexOutOfBoundsException("cannot read " + bytes + " bytes at " + position + ": the excerpt has "
                + limit);
    }

    static IndexOutOfBoundsException malformedLength(long start) {
        return new IndexOutOfBoundsException("malformed length at " + start + ": not a length of at most 63 bits");
    }

    static IndexOutOfBoundsException textTooLong(long length) {
        return new IndexOutOfBoundsException("text of " + length + " bytes is longer than a String can be");
    }
}
