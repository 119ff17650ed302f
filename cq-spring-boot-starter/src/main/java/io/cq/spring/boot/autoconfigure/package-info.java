/**
 * Spring Boot auto-configuration for cq: queues from {@code cq.queues.*} as beans, the template, listener support,
 * Actuator and metrics, each switched on by what the application has on its class path.
 */
@NullMarked
package io.cq.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
