package io.cq.spring.event;

import io.cq.spring.listener.QueueListenerContainer;

import java.time.Duration;

/** The listener has received nothing for {@code cq.listener.idle-event-interval} (again). */
public final class ListenerIdleEvent extends ListenerContainerEvent {
    private final Duration idleFor;

    public ListenerIdleEvent(QueueListenerContainer container, Duration idleFor) {
        super(container);
        this.idleFor = idleFor;
    }

    /** How long the listener has been idle. */
    public Duration idleFor() {
        return idleFor;
    }
}
