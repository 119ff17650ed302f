package io.cq.spring.listener;

import io.cq.spring.event.ListenerCaughtUpEvent;
import io.cq.spring.event.ListenerIdleEvent;
import io.cq.spring.event.ListenerStartedEvent;
import io.cq.spring.event.ListenerStoppedEvent;
import org.springframework.context.ApplicationEventPublisher;

import java.time.Duration;

/** The application events of one container, published on its thread. */
final class ContainerEvents {
    private final Object container;
    private final String listenerId;
    private final String queueName;
    private final ApplicationEventPublisher publisher;

    ContainerEvents(Object container, ListenerEndpoint endpoint, ApplicationEventPublisher publisher) {
        this.container = container;
        this.listenerId = endpoint.id();
        this.queueName = endpoint.queueName();
        this.publisher = publisher;
    }

    void started() {
        publisher.publishEvent(new ListenerStartedEvent(container, listenerId, queueName));
    }

    void caughtUp(long nextIndex) {
        publisher.publishEvent(new ListenerCaughtUpEvent(container, listenerId, queueName, nextIndex));
    }

    void idle(Duration idleFor) {
        publisher.publishEvent(new ListenerIdleEvent(container, listenerId, queueName, idleFor));
    }

    void stopped(ListenerState state) {
        ListenerStoppedEvent.Reason reason = state == ListenerState.FAILED
                ? ListenerStoppedEvent.Reason.FAILED : ListenerStoppedEvent.Reason.STOPPED;
        publisher.publishEvent(new ListenerStoppedEvent(container, listenerId, queueName, reason));
    }
}
