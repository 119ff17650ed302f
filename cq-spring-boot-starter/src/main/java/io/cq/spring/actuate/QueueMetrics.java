package io.cq.spring.actuate;

import io.cq.core.MappedQueue;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.QueueListenerContainer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Registers the queue and listener meters, tagged {@code queue} and {@code listener}, once every singleton exists:
 * listener containers are created while their beans are, so a meter binder run earlier would miss some.
 * Meters read the figures when scraped; nothing is counted twice.
 */
public final class QueueMetrics implements SmartInitializingSingleton {
    private final ObjectProvider<MeterRegistry> meterRegistry;
    private final Map<String, MappedQueue> queues;
    private final @Nullable ListenerContainerRegistry listeners;
    private final @Nullable QueueAdapters adapters;
    /** Micrometer holds a function meter's object weakly: the adapters' views are kept alive here. */
    private final List<QueueAdapters.Adapter> meteredAdapters = new ArrayList<>();

    public QueueMetrics(ObjectProvider<MeterRegistry> meterRegistry, Map<String, MappedQueue> queues,
                        @Nullable ListenerContainerRegistry listeners) {
        this(meterRegistry, queues, listeners, null);
    }

    /** @param adapters the Spring Integration adapters to meter like listeners, or null */
    public QueueMetrics(ObjectProvider<MeterRegistry> meterRegistry, Map<String, MappedQueue> queues,
                        @Nullable ListenerContainerRegistry listeners, @Nullable QueueAdapters adapters) {
        this.meterRegistry = meterRegistry;
        this.queues = Map.copyOf(queues);
        this.listeners = listeners;
        this.adapters = adapters;
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
        if (adapters != null) {
            meteredAdapters.addAll(adapters.all());
            meteredAdapters.forEach(adapter -> bindAdapter(registry, adapter));
        }
    }

    /** Adapters of flows registered later at run time are not metered; those defined at start-up are. */
    private void bindAdapter(MeterRegistry registry, QueueAdapters.Adapter adapter) {
        String queueName = queues.entrySet().stream()
                .filter(entry -> entry.getValue().path().toAbsolutePath().normalize()
                        .equals(adapter.queue().toAbsolutePath().normalize()))
                .map(Map.Entry::getKey).findFirst().orElse(adapter.queue().getFileName().toString());
        String[] tags = {"queue", queueName, "adapter", adapter.id()};
        FunctionCounter.builder("cq.adapter.processed", adapter, QueueAdapters.Adapter::processed)
                .description("Messages the Spring Integration adapter handled").tags(tags).register(registry);
        FunctionCounter.builder("cq.adapter.failed", adapter, QueueAdapters.Adapter::failed)
                .description("Messages the Spring Integration adapter failed on").tags(tags).register(registry);
        Gauge.builder("cq.adapter.lag", adapter, QueueAdapters.Adapter::lag)
                .description("Excerpts a reading adapter has not processed yet").tags(tags).baseUnit("excerpts")
                .register(registry);
    }

    private static double lastCycle(MappedQueue queue) {
        if (queue.isClosed()) {
            return Double.NaN;
        }
        long last = queue.lastIndex();
        return last < 0 ? -1 : queue.rollCycle().toCycle(last);
    }

    private static double lastSequence(MappedQueue queue) {
        if (queue.isClosed()) {
            return Double.NaN;
        }
        long last = queue.lastIndex();
        return last < 0 ? -1 : queue.rollCycle().toSequenceNumber(last);
    }

    private void bindQueue(MeterRegistry registry, String name, MappedQueue queue) {
        Gauge.builder("cq.queue.last.index", queue, q -> q.isClosed() ? Double.NaN : q.lastIndex())
                .description("Index of the last excerpt in the queue (-1 when empty); a double, so not exact above "
                        + "2^53: use last.cycle and last.sequence for the exact value").tag("queue", name)
                .register(registry);
        // Each part fits a double exactly: cycles and sequence numbers stay far below 2^53.
        Gauge.builder("cq.queue.last.cycle", queue, QueueMetrics::lastCycle)
                .description("Cycle of the last excerpt in the queue (-1 when empty)").tag("queue", name)
                .register(registry);
        Gauge.builder("cq.queue.last.sequence", queue, QueueMetrics::lastSequence)
                .description("Sequence number of the last excerpt within its cycle (-1 when empty)").tag("queue", name)
                .register(registry);
        Gauge.builder("cq.queue.disk.free", queue, q -> q.isClosed() ? Double.NaN : q.diskSpace().usableBytes())
                .description("Bytes this process may still write on the queue's file system").tag("queue", name)
                .baseUnit(BaseUnits.BYTES).register(registry);
        if (queue.settings().asyncMode()) {
            Gauge.builder("cq.queue.async.buffered", queue, q -> q.isClosed() ? Double.NaN : q.asyncBufferedBytes())
                    .description("Bytes of the async buffer holding excerpts not drained into the queue yet, of "
                            + queue.settings().asyncBufferSize()).tag("queue", name).baseUnit(BaseUnits.BYTES)
                    .register(registry);
        }
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
                .description("Time in the listener method, failed calls included; one call in 8 is timed, the total "
                + "scaled to all").tags(tags).register(registry);
        Gauge.builder("cq.listener.lag", container, QueueListenerContainer::lag)
                .description("Excerpts the listener has not processed yet").tags(tags).baseUnit("excerpts")
                .register(registry);
        Gauge.builder("cq.listener.stopped.by.error", container,
                        c -> c.state() == ListenerState.FAILED ? 1 : 0)
                .description("1 while the listener is stopped by an error (FAILED: its error handler stopped it, or it "
                        + "met a damaged queue), else 0").tags(tags).register(registry);
    }
}
