/**
 * The annotations an application puts on its code: {@link io.cq.spring.annotation.QueueListener},
 * {@link io.cq.spring.annotation.QueueWriter} and {@link io.cq.spring.annotation.Header}, and the post-processor
 * that turns listener methods into containers.
 */
@NullMarked
package io.cq.spring.annotation;

import org.jspecify.annotations.NullMarked;
