/**
 * The containers that run {@link io.cq.spring.annotation.QueueListener} methods (one thread and one named tailer
 * each), what they are made from ({@link io.cq.spring.listener.ListenerEndpoint},
 * {@link io.cq.spring.listener.ContainerSettings}) and their error handling: retries, logging, stopping and dead
 * letters.
 */
@NullMarked
package io.cq.spring.listener;

import org.jspecify.annotations.NullMarked;
