package io.cq.integration.observation;

import io.micrometer.common.KeyValues;

/** The tags both adapter observations carry: one place, so that receive and send stay tagged alike. */
final class AdapterKeyValues {
    private AdapterKeyValues() {
    }

    static KeyValues lowCardinality(String queueName, String adapterId) {
        return KeyValues.of(QueueAdapterObservation.LowCardinalityKeys.QUEUE.withValue(queueName),
                QueueAdapterObservation.LowCardinalityKeys.ADAPTER.withValue(adapterId));
    }

    /** The excerpt's index in hex, as cq's logs write it; nothing before the excerpt has one (index below 0). */
    static KeyValues index(long index) {
        return index < 0 ? KeyValues.empty() : KeyValues.of(
                QueueAdapterObservation.HighCardinalityKeys.INDEX.withValue("0x" + Long.toHexString(index)));
    }
}
