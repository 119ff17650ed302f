package io.cq.integration.mapping;

import org.springframework.messaging.converter.MessageConversionException;

/**
 * An excerpt that cannot become a message of the payload type the reader was configured with. The reader
 * skips the excerpt (it would fail the same way every time), counts it as failed and sends this exception to
 * its error channel when it has one.
 */
public final class ExcerptConversionException extends MessageConversionException {
    private final String queueName;
    private final long index;

    /** The excerpt at {@code index} of {@code queueName} cannot be converted, for {@code reason}. */
    public ExcerptConversionException(String queueName, long index, String reason, Throwable cause) {
        super("excerpt at index 0x" + Long.toHexString(index) + " of queue " + queueName + " cannot be converted: "
                + reason, cause);
        this.queueName = queueName;
        this.index = index;
    }

    /** The queue the excerpt is in. */
    public String queueName() {
        return queueName;
    }

    /** The excerpt's index. */
    public long index() {
        return index;
    }
}
