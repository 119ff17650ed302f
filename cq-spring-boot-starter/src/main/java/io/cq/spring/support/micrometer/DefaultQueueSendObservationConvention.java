package io.cq.spring.support.micrometer;

import io.micrometer.common.KeyValues;

/** {@code cq.send}, contextual name {@code <queue> send}, tagged {@code queue} and, on the span, {@code cq.index}. */
public class DefaultQueueSendObservationConvention implements QueueSendObservationConvention {
    public static final DefaultQueueSendObservationConvention INSTANCE = new DefaultQueueSendObservationConvention();
    public static final String NAME = "cq.send";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ExcerptSenderContext context) {
        return context.queueName() + " send";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ExcerptSenderContext context) {
        return KeyValues.of(QueueObservation.LowCardinalityKeys.QUEUE.withValue(context.queueName()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ExcerptSenderContext context) {
        // Asked again when the observation stops, by which time the excerpt has its index.
        return context.index() < 0 ? KeyValues.empty()
                : KeyValues.of(QueueObservation.HighCardinalityKeys.INDEX.withValue(
                        "0x" + Long.toHexString(context.index())));
    }
}
