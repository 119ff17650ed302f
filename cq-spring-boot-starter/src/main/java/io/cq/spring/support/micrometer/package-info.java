/**
 * Micrometer observations of cq's sends and listener calls, and the contexts that carry the trace context through
 * an excerpt's headers (docs/spring-boot.md, "Tracing"): {@link io.cq.spring.support.micrometer.QueueObservation}
 * documents them; a {@code GlobalObservationConvention} bean for
 * {@link io.cq.spring.support.micrometer.ExcerptSenderContext} or
 * {@link io.cq.spring.support.micrometer.ExcerptReceiverContext} replaces their names and tags.
 */
@NullMarked
package io.cq.spring.support.micrometer;

import org.jspecify.annotations.NullMarked;
