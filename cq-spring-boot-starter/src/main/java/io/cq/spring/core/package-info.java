/** Spring-facing access to cq queues: {@link io.cq.spring.core.QueueTemplate} for appends. */
package io.cq.spring.core;
