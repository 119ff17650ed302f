package io.cq.spring.listener;

import io.cq.core.ExcerptBytes;

/**
 * One excerpt of a dead-letter queue: a failed excerpt and why it failed. The layout, in
 * {@link ExcerptBytes} terms: five UTF-8 strings and a long in the order of the components below, then the
 * payload's length as an int and its bytes.
 *
 * @param queue            the queue the excerpt was read from
 * @param index            its index there
 * @param listenerId       the listener that failed
 * @param exceptionClass   the class name of the last exception thrown
 * @param exceptionMessage its message, or empty
 * @param payload          the excerpt's bytes
 */
public record DeadLetter(String queue, long index, String listenerId, String exceptionClass, String exceptionMessage,
                         byte[] payload) {

    /** Reads a dead letter written by {@link #writeTo(ExcerptBytes)}, from the start of the excerpt. */
    public static DeadLetter readFrom(ExcerptBytes bytes) {
        bytes.position(0);
        String queue = bytes.readUtf8();
        long index = bytes.readLong();
        String listenerId = bytes.readUtf8();
        String exceptionClass = bytes.readUtf8();
        String exceptionMessage = bytes.readUtf8();
        byte[] payload = new byte[bytes.readInt()];
        bytes.readBytes(payload);
        return new DeadLetter(queue, index, listenerId, exceptionClass, exceptionMessage, payload);
    }

    /** Writes this dead letter at the cursor. */
    public void writeTo(ExcerptBytes bytes) {
        bytes.writeUtf8(queue).writeLong(index).writeUtf8(listenerId).writeUtf8(exceptionClass)
                .writeUtf8(exceptionMessage).writeInt(payload.length).writeBytes(payload);
    }
}
