/**
 * The web console (docs/console.md): a page served by the application itself, where the Actuator is, showing its
 * queues, listeners, Spring Integration adapters, named tailers, an excerpt browser and dead letters; it pauses,
 * resumes and moves listeners when the {@code queues} endpoint allows writes. Registered only with
 * {@code cq.console.enabled=true}.
 */
@NullMarked
package io.cq.spring.console;

import org.jspecify.annotations.NullMarked;
