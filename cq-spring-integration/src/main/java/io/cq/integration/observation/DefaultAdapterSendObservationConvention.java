package io.cq.integration.observation;

/**
 * {@code cq.adapter.send}, contextual name {@code <queue> send}, tagged {@code queue} and {@code adapter} and, on
 * the span, {@code cq.index}.
 */
public class DefaultAdapterSendObservationConvention extends AdapterObservationConvention<AdapterSenderContext> {
    public static final DefaultAdapterSendObservationConvention INSTANCE =
            new DefaultAdapterSendObservationConvention();
    public static final String NAME = "cq.adapter.send";

    public DefaultAdapterSendObservationConvention() {
        super(NAME, AdapterSenderContext.class);
    }

    @Override
    public String getContextualName(AdapterSenderContext context) {
        return context.queueName() + " send";
    }
}
