package io.cq.spring.support.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags of {@link QueueObservation#SEND} observations. To replace {@link
 * DefaultQueueSendObservationConvention}, declare a bean that also implements {@code GlobalObservationConvention}
 * (Boot registers those with the {@code ObservationRegistry}, which prefers them to the default).
 */
public interface QueueSendObservationConvention extends ObservationConvention<ExcerptSenderContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ExcerptSenderContext;
    }
}
