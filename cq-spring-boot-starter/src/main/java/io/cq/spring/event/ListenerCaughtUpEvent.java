package io.cq.spring.event;

/**
 * The listener reached the end of its queue: it has processed every excerpt appended so far. Published once per
 * transition from behind to caught up (at start-up, and again after each run of new excerpts).
 */
public final class ListenerCaughtUpEvent extends ListenerContainerEvent {
    private final long nextIndex;

    public ListenerCaughtUpEvent(Object container, String listenerId, String queueName, long nextIndex) {
        super(container, listenerId, queueName);
        this.nextIndex = nextIndex;
    }

    /** Index of the next excerpt the listener will read (it does not exist yet). */
    public long nextIndex() {
        return nextIndex;
    }
}
