package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.MessageHistory;

import java.nio.charset.StandardCharsets;

/**
 * Reads the part of a message excerpt before its arguments (see {@link MessageLayout}) into reused fields, so
 * that a method reader finds the method without allocating.
 */
final class MessageHeader {
    final byte[] name = new byte[MessageLayout.MAX_NAME_BYTES];
    int nameLength;
    int argumentCount;

    /**
     * Reads the header from the start of the excerpt, leaving the cursor on the first argument. The history
     * section replaces {@code history} when given, and is skipped otherwise.
     *
     * @return false, without moving the cursor, when the excerpt is not a message
     * @throws MessageDecodingException when it is a message of another version or is cut short
     */
    boolean read(ExcerptBytes bytes, long index, MessageHistory history) {
        if (!MessageLayout.isMessage(bytes)) {
            return false;
        }
        int version = MessageLayout.version(bytes);
        if (version != MessageLayout.VERSION) {
            throw new MessageDecodingException(index, null, "message layout version " + version
                    + " is not known to this cq, which reads version " + MessageLayout.VERSION, null);
        }
        try {
            bytes.position(MessageLayout.MAGIC_SIZE);
            int flags = bytes.readByte();
            if ((flags & MessageLayout.FLAG_HISTORY) != 0) {
                if (history != null) {
                    MessageLayout.readHistory(bytes, history);
                } else {
                    MessageLayout.skipHistory(bytes);
                }
            } else if (history != null) {
                history.reset();
            }
            nameLength = bytes.readByte() & 0xFF;
            bytes.readBytes(name, 0, nameLength);
            argumentCount = bytes.readByte() & 0xFF;
            return true;
        } catch (RuntimeException e) {
            throw new MessageDecodingException(index, null, "the message header is cut short or malformed ("
                    + bytes.length()
                    + " bytes): " + e.getMessage(), e);
        }
    }

    String name() {
        return new String(name, 0, nameLength, StandardCharsets.UTF_8);
    }
}
