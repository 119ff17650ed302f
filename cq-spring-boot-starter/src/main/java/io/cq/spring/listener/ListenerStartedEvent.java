package io.cq.spring.listener;

/** The container's thread started and holds the listener's named tailer. */
public final class ListenerStartedEvent extends ListenerContainerEvent {

    public ListenerStartedEvent(QueueListenerContainer container) {
        super(container);
    }
}
