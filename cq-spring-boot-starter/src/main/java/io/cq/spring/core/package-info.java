/**
 * Writing to queues from Spring: {@link io.cq.spring.core.QueueTemplate} and the proxies behind
 * {@link io.cq.spring.annotation.QueueWriter} interfaces, sharing a few appenders per queue.
 */
@NullMarked
package io.cq.spring.core;

import org.jspecify.annotations.NullMarked;
