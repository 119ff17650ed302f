package io.cq.spring.event;

import io.cq.spring.listener.QueueListenerContainer;
import org.springframework.context.ApplicationEvent;

/** Something that happened to a listener container; published on the container's thread. */
public abstract class ListenerContainerEvent extends ApplicationEvent {
    protected ListenerContainerEvent(QueueListenerContainer container) {
        super(container);
    }

    public QueueListenerContainer container() {
        return (QueueListenerContainer) getSource();
    }

    public String listenerId() {
        return container().id();
    }

    public String queueName() {
        return container().queueName();
    }
}
