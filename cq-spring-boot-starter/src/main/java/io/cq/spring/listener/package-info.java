/**
 * {@link io.cq.spring.listener.QueueListener} methods, the containers that run them (one thread and one named
 * tailer each), the registry that controls them by id, their events and their error handling.
 */
package io.cq.spring.listener;
