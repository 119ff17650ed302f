package io.cq.spring.event;

import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.QueueListenerContainer;

/** The container's thread ended, on request (state STOPPED) or by an error (state FAILED); see {@link #state()}. */
public final class ListenerStoppedEvent extends ListenerContainerEvent {

    private final ListenerState state;

    public ListenerStoppedEvent(QueueListenerContainer container, ListenerState state) {
        super(container);
        this.state = state;
    }

    /** STOPPED or FAILED. */
    public ListenerState state() {
        return state;
    }
}
