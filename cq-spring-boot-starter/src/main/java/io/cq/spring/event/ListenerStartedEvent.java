package io.cq.spring.event;

import io.cq.spring.listener.QueueListenerContainer;

/** The container's thread started and holds the listener's named tailer. */
public final class ListenerStartedEvent extends ListenerContainerEvent {

    public ListenerStartedEvent(QueueListenerContainer container) {
        super(container);
    }
}
