/** Actuator support: the {@code queues} endpoint, the {@code queues} health indicator and Micrometer meters. */
package io.cq.spring.actuate;
