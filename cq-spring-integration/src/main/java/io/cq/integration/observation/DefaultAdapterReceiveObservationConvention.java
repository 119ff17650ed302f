package io.cq.integration.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * {@code cq.adapter.receive}, contextual name {@code <adapter> receive}, tagged {@code queue} and {@code adapter}
 * and, on the span, {@code cq.index}.
 */
public class DefaultAdapterReceiveObservationConvention implements ObservationConvention<AdapterReceiverContext> {
    public static final DefaultAdapterReceiveObservationConvention INSTANCE =
            new DefaultAdapterReceiveObservationConvention();
    public static final String NAME = "cq.adapter.receive";

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof AdapterReceiverContext;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(AdapterReceiverContext context) {
        return context.adapterId() + " receive";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(AdapterReceiverContext context) {
        return AdapterKeyValues.lowCardinality(context.queueName(), context.adapterId());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(AdapterReceiverContext context) {
        return AdapterKeyValues.index(context.index());
    }
}
