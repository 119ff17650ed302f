package io.cq.spring.support.micrometer;

import io.micrometer.common.KeyValues;

/**
 * {@code cq.listener}, contextual name {@code <listener> receive}, tagged {@code queue} and {@code listener} and, on
 * the span, {@code cq.index}.
 */
public class DefaultQueueListenerObservationConvention implements QueueListenerObservationConvention {
    public static final DefaultQueueListenerObservationConvention INSTANCE =
            new DefaultQueueListenerObservationConvention();
    public static final String NAME = "cq.listener";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ExcerptReceiverContext context) {
        return context.listenerId() + " receive";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ExcerptReceiverContext context) {
        return KeyValues.of(QueueObservation.LowCardinalityKeys.QUEUE.withValue(context.queueName()),
                QueueObservation.LowCardinalityKeys.LISTENER.withValue(context.listenerId()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ExcerptReceiverContext context) {
        return KeyValues.of(QueueObservation.HighCardinalityKeys.INDEX.withValue(
                "0x" + Long.toHexString(context.index())));
    }
}
