/**
 * How a {@link io.cq.spring.annotation.QueueListener} method is called: one
 * {@link io.cq.spring.listener.invoke.ListenerArgumentResolver} per parameter, chosen at start-up.
 */
@NullMarked
package io.cq.spring.listener.invoke;

import org.jspecify.annotations.NullMarked;
