package io.cq.integration.observation;

/**
 * {@code cq.adapter.receive}, contextual name {@code <adapter> receive}, tagged {@code queue} and {@code adapter}
 * and, on the span, {@code cq.index}.
 */
public class DefaultAdapterReceiveObservationConvention extends AdapterObservationConvention<AdapterReceiverContext> {
    public static final DefaultAdapterReceiveObservationConvention INSTANCE =
            new DefaultAdapterReceiveObservationConvention();
    public static final String NAME = "cq.adapter.receive";

    public DefaultAdapterReceiveObservationConvention() {
        super(NAME, AdapterReceiverContext.class);
    }

    @Override
    public String getContextualName(AdapterReceiverContext context) {
        return context.adapterId() + " receive";
    }
}
