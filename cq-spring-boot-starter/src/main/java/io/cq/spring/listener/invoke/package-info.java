/**
 * How a {@link io.cq.spring.listener.QueueListener} method is called: one
 * {@link io.cq.spring.listener.invoke.ListenerArgumentResolver} per parameter, chosen at start-up.
 */
package io.cq.spring.listener.invoke;
