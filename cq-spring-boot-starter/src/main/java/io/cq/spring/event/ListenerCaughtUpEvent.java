package io.cq.spring.event;

import io.cq.spring.listener.QueueListenerContainer;

/**
 * The listener reached the end of its queue: it has processed every excerpt appended so far. Published once per
 * transition from behind to caught up (at start-up, and again after each run of new excerpts).
 */
public final class ListenerCaughtUpEvent extends ListenerContainerEvent {
    private final long nextIndex;

    public ListenerCaughtUpEvent(QueueListenerContainer container, long nextIndex) {
        super(container);
        this.nextIndex = nextIndex;
    }

    /** Index of the next excerpt the listener will read (it does not exist yet). */
    public long nextIndex() {
        return nextIndex;
    }
}
