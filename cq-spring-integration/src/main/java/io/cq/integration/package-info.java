/**
 * Spring Integration for cq: inbound and outbound channel adapters, a pollable message source, a durable
 * channel, the Java DSL ({@link io.cq.integration.dsl.Cq}) and a Kafka bridge recipe ({@code
 * docs/spring-integration.md}). This package holds what they share: the header names ({@link
 * io.cq.integration.CqHeaders}) and the monitoring view of every adapter ({@link
 * io.cq.integration.QueueAdapterInfo}, listed by {@link io.cq.integration.QueueAdapterRegistry}).
 */
package io.cq.integration;
