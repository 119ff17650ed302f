/**
 * Micrometer observations of the adapters that write and read excerpts, which carry the trace context through the
 * excerpts' headers (docs/spring-integration.md, "Tracing"): {@link
 * io.cq.integration.observation.QueueAdapterObservation} documents them; a {@code GlobalObservationConvention} for
 * {@link io.cq.integration.observation.AdapterSenderContext} or
 * {@link io.cq.integration.observation.AdapterReceiverContext} replaces their names and tags.
 */
package io.cq.integration.observation;
