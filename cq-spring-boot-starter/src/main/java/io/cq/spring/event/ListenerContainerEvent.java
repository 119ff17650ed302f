package io.cq.spring.event;

import org.springframework.context.ApplicationEvent;

/**
 * Something that happened to a listener container; published on the container's thread.
 *
 * <p>The container is held as an {@code Object} (the event's source), as spring-kafka's events hold theirs: the
 * container publishes these events, so naming its class here would tie this package and the listener package into a
 * cycle. Ask for it with {@link #getContainer(Class)}.
 */
public abstract class ListenerContainerEvent extends ApplicationEvent {
    private final String listenerId;
    private final String queueName;

    protected ListenerContainerEvent(Object container, String listenerId, String queueName) {
        super(container);
        this.listenerId = listenerId;
        this.queueName = queueName;
    }

    /**
     * The container that published this event, as the type asked for
     * ({@code event.getContainer(QueueListenerContainer.class)}).
     *
     * @throws IllegalArgumentException when the container is not of that type
     */
    public <T> T getContainer(Class<T> type) {
        Object container = getSource();
        if (!type.isInstance(container)) {
            throw new IllegalArgumentException("the container of listener '" + listenerId + "' is a "
                    + container.getClass().getName() + ", not a " + type.getName());
        }
        return type.cast(container);
    }

    public String listenerId() {
        return listenerId;
    }

    public String queueName() {
        return queueName;
    }
}
