package io.cq.spring.support.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags of {@link QueueObservation#LISTENER} observations. */
public interface QueueListenerObservationConvention extends ObservationConvention<ExcerptReceiverContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ExcerptReceiverContext;
    }
}
