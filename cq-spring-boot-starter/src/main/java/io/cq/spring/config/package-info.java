/**
 * How listener containers are made and controlled: the post-processor that reads
 * {@link io.cq.spring.annotation.QueueListener} methods into endpoints, the container factory, and the registry that
 * starts, stops and finds containers by id.
 */
@NullMarked
package io.cq.spring.config;

import org.jspecify.annotations.NullMarked;
