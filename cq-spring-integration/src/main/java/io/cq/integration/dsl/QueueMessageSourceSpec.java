package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.integration.inbound.QueueMessageSource;
import org.springframework.integration.dsl.MessageSourceSpec;

/** Configures a {@link QueueMessageSource}; its {@code id} is also its named tailer's name. */
public final class QueueMessageSourceSpec extends MessageSourceSpec<QueueMessageSourceSpec, QueueMessageSource> {

    QueueMessageSourceSpec(MappedQueue queue) {
        this.target = new QueueMessageSource(queue);
    }

    /** See {@link QueueMessageSource#setAdapterId(String)}: the name of its tailer too. */
    public QueueMessageSourceSpec adapterId(String adapterId) {
        this.target.setAdapterId(adapterId);
        return this;
    }

    /** See {@link QueueMessageSource#setPayloadType(Class)}. */
    public QueueMessageSourceSpec payloadType(Class<?> payloadType) {
        this.target.setPayloadType(payloadType);
        return this;
    }

    /** See {@link QueueMessageSource#setStartPosition(StartPosition)}. */
    public QueueMessageSourceSpec startPosition(StartPosition startPosition) {
        this.target.setStartPosition(startPosition);
        return this;
    }
}
