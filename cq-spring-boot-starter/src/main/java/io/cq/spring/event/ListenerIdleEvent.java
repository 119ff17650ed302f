package io.cq.spring.event;

import java.time.Duration;

/** The listener has received nothing for {@code cq.listener.idle-event-interval} (again). */
public final class ListenerIdleEvent extends ListenerContainerEvent {
    private final Duration idleFor;

    public ListenerIdleEvent(Object container, String listenerId, String queueName, Duration idleFor) {
        super(container, listenerId, queueName);
        this.idleFor = idleFor;
    }

    /** How long the listener has been idle. */
    public Duration idleFor() {
        return idleFor;
    }
}
