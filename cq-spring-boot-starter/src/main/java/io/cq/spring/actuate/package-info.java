/** Actuator support: the {@code queues} endpoint, the {@code queues} health indicator and Micrometer meters. */
@NullMarked
package io.cq.spring.actuate;

import org.jspecify.annotations.NullMarked;
