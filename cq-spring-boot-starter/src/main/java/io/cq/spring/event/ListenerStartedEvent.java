package io.cq.spring.event;

/** The container's thread started and holds the listener's named tailer. */
public final class ListenerStartedEvent extends ListenerContainerEvent {

    public ListenerStartedEvent(Object container, String listenerId, String queueName) {
        super(container, listenerId, queueName);
    }
}
