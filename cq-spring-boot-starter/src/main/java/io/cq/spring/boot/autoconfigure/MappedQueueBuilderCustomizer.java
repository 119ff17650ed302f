package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueueBuilder;

/**
 * Adjusts the builder of each configured queue after the {@code cq.queues.<name>.*} properties were applied and
 * before the queue opens: for what properties do not cover (a clock, a store-file listener). Applied in
 * {@link org.springframework.core.annotation.Order} order.
 */
@FunctionalInterface
public interface MappedQueueBuilderCustomizer {
    /**
     * @param queueName the key under {@code cq.queues}, which is also the queue's bean name
     * @param builder   the builder, with the properties applied
     */
    void customize(String queueName, MappedQueueBuilder builder);
}
