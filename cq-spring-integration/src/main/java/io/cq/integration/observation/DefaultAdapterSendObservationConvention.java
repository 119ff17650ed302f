package io.cq.integration.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * {@code cq.adapter.send}, contextual name {@code <queue> send}, tagged {@code queue} and {@code adapter} and, on
 * the span, {@code cq.index}.
 */
public class DefaultAdapterSendObservationConvention implements ObservationConvention<AdapterSenderContext> {
    public static final DefaultAdapterSendObservationConvention INSTANCE =
            new DefaultAdapterSendObservationConvention();
    public static final String NAME = "cq.adapter.send";

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof AdapterSenderContext;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(AdapterSenderContext context) {
        return context.queueName() + " send";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(AdapterSenderContext context) {
        return AdapterKeyValues.lowCardinality(context.queueName(), context.adapterId());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(AdapterSenderContext context) {
        // Asked again when the observation stops, by which time the excerpt has its index.
        return AdapterKeyValues.index(context.index());
    }
}
