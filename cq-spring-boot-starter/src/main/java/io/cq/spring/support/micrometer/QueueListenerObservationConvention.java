package io.cq.spring.support.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags of {@link QueueObservation#LISTENER} observations. To replace {@link
 * DefaultQueueListenerObservationConvention}, declare a bean that also implements {@code GlobalObservationConvention}.
 */
public interface QueueListenerObservationConvention extends ObservationConvention<ExcerptReceiverContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ExcerptReceiverContext;
    }
}
