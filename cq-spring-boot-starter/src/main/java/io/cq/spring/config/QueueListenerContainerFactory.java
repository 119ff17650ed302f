package io.cq.spring.config;

import io.cq.core.MappedQueue;
import io.cq.spring.listener.ListenerEndpoint;
import io.cq.spring.listener.QueueListenerContainer;

/**
 * Makes the container of each {@link io.cq.spring.annotation.QueueListener}; name another bean of this type in
 * {@link io.cq.spring.annotation.QueueListener#containerFactory()} for listeners that need different settings.
 */
@FunctionalInterface
public interface QueueListenerContainerFactory {
    QueueListenerContainer createContainer(ListenerEndpoint endpoint, MappedQueue queue);
}
