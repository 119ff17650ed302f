package io.cq.spring.event;

/**
 * The container's thread ended, on request or by an error; see {@link #reason()}. The container's state then reads
 * STOPPED or FAILED as well.
 */
public final class ListenerStoppedEvent extends ListenerContainerEvent {

    /** Why the thread ended. */
    public enum Reason {
        /** Stopped on request; the position is committed up to the last excerpt processed. */
        STOPPED,
        /** Stopped by an error: an error handler asked to stop, or reading the queue failed. */
        FAILED
    }

    private final Reason reason;

    public ListenerStoppedEvent(Object container, String listenerId, String queueName, Reason reason) {
        super(container, listenerId, queueName);
        this.reason = reason;
    }

    /** STOPPED or FAILED. */
    public Reason reason() {
        return reason;
    }
}
