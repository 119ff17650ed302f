package io.cq.spring.listener;

import io.cq.core.MappedQueue;

/**
 * Makes the container of each {@link QueueListener}; name another bean of this type in
 * {@link QueueListener#containerFactory()} for listeners that need different settings.
 */
@FunctionalInterface
public interface QueueListenerContainerFactory {
    QueueListenerContainer createContainer(ListenerEndpoint endpoint, MappedQueue queue);
}
