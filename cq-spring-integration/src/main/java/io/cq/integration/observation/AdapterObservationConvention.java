package io.cq.integration.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * What the receive and send conventions share, written once so that both stay tagged alike: the name, the
 * {@code queue} and {@code adapter} tags and, on the span, {@code cq.index}. Each subclass names its context type
 * and its contextual name.
 */
abstract class AdapterObservationConvention<C extends Observation.Context & AdapterObservationContext>
        implements ObservationConvention<C> {
    private final String name;
    private final Class<C> contextType;

    AdapterObservationConvention(String name, Class<C> contextType) {
        this.name = name;
        this.contextType = contextType;
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return contextType.isInstance(context);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(C context) {
        return KeyValues.of(QueueAdapterObservation.LowCardinalityKeys.QUEUE.withValue(context.queueName()),
                QueueAdapterObservation.LowCardinalityKeys.ADAPTER.withValue(context.adapterId()));
    }

    /** Asked again when the observation stops, by which time a sent excerpt has its index. */
    @Override
    public KeyValues getHighCardinalityKeyValues(C context) {
        long index = context.index();
        return index < 0 ? KeyValues.empty() : KeyValues.of(
                QueueAdapterObservation.HighCardinalityKeys.INDEX.withValue("0x" + Long.toHexString(index)));
    }
}
