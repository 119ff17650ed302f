package io.cq.spring.actuate;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.cq.core.MappedQueue;
import io.cq.spring.listener.ListenerContainerRegistry;
import io.cq.spring.listener.QueueListenerContainer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Registers the queue and listener meters, tagged {@code queue} and {@code listener}, once every singleton exists:
 * listener containers are created while their beans are, so a meter binder run earlier would miss some.
 * Meters read the figures when scraped; nothing is counted twice.
 */
public final class QueueMetrics implements SmartInitializingSingleton {
    private final ObjectProvider<MeterRegistry> meterRegistry;
    private final Map<String, MappedQueue> queues;
    private final @Nullable ListenerContainerRegistry listeners;

    public QueueMetrics(ObjectProvider<MeterRegistry> meterRegistry, Map<String, MappedQueue> queues,
                        @Nullable ListenerContainerRegistry listeners) {
        this.meterRegistry = meterRegistry;
        this.queues = Map.copyOf(queues);
        this.listeners = listeners;
    }

    @Override
    public void afterSingletonsInstantiated() {
        meterRegistry.ifAvailable(this::bindTo);
    }

    void bindTo(MeterRegistry registry) {
        queues.forEach((name, queue) -> bindQueue(registry, name, queue));
        if (listeners != null) {
            listeners.containers().forEach(container -> bindListener(registry, container));
        }
    }

    private void bindQueue(MeterRegistry registry, String name, MappedQueue queue) {
        Gauge.builder("cq.queue.last.index", queue, q -> q.isClosed() ? Double.NaN : q.lastIndex())
                .description("Index of the last excerpt in the queue (-1 when empty)").tag("queue", name)
                .register(registry);
        Gauge.builder("cq.queue.disk.free", queue, q -> q.isClosed() ? Double.NaN : q.diskSpace().usableBytes())
                .description("Bytes this process may still write on the queue's file system").tag("queue", name)
                .baseUnit(BaseUnits.BYTES).register(registry);
        FunctionCounter.builder("cq.queue.appended", queue, MappedQueue::appendedExcerpts)
                .description("Excerpts appended by this application since the queue was opened").tag("queue", name)
                .baseUnit("excerpts").register(registry);
        FunctionCounter.builder("cq.queue.appended.bytes", queue, MappedQueue::appendedBytes)
                .description("Payload bytes appended by this application since the queue was opened").tag("queue", name)
                .baseUnit(BaseUnits.BYTES).register(registry);
    }

    private static void bindListener(MeterRegistry registry, QueueListenerContainer container) {
        String[] tags = {"queue", container.queueName(), "listener", container.id()};
        FunctionCounter.builder("cq.listener.processed", container, QueueListenerContainer::processedCount)
                .description("Excerpts the listener processed").tags(tags).baseUnit("excerpts").register(registry);
        FunctionCounter.builder("cq.listener.failed", container, QueueListenerContainer::failedCount)
                .description("Excerpts whose retries ran out").tags(tags).baseUnit("excerpts").register(registry);
        FunctionCounter.builder("cq.listener.retries", container, QueueListenerContainer::retryCount)
                .description("Listener calls repeated after a failure").tags(tags).register(registry);
        FunctionTimer.builder("cq.listener.processing", container, QueueListenerContainer::callCount,
                        QueueListenerContainer::processingNanos, TimeUnit.NANOSECONDS)
                .description("Time in the listener method, failed calls included").tags(tags).register(registry);
        Gauge.builder("cq.listener.lag", container, QueueListenerContainer::lag)
                .description("Excerpts the listener has not processed yet").tags(tags).baseUnit("excerpts")
                .register(registry);
    }
}
