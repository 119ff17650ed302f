/**
 * Crossing machines: helpers for bridging a queue to a broker and back (docs/spring-integration.md, "Beyond one
 * machine"), independent of the broker.
 */
package io.cq.integration.bridge;
