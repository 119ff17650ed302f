package io.cq.spring.support.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags of {@link QueueObservation#SEND} observations; a bean of it replaces the default. */
public interface QueueSendObservationConvention extends ObservationConvention<ExcerptSenderContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ExcerptSenderContext;
    }
}
