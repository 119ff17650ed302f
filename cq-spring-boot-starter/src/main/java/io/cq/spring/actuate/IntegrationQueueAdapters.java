package io.cq.spring.actuate;

import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.QueueAdapterRegistry;

import java.nio.file.Path;
import java.util.List;

/** {@link QueueAdapters} over cq's Spring Integration adapters ({@link QueueAdapterRegistry}). */
public final class IntegrationQueueAdapters implements QueueAdapters {
    private final QueueAdapterRegistry registry;

    public IntegrationQueueAdapters(QueueAdapterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<QueueDescriptor.AdapterDescriptor> adaptersOf(Path queue) {
        Path wanted = queue.toAbsolutePath().normalize();
        return registry.adapters().stream()
                .filter(adapter -> adapter.queuePath().toAbsolutePath().normalize().equals(wanted))
                .map(IntegrationQueueAdapters::describe).toList();
    }

    @Override
    public List<Adapter> all() {
        return registry.adapters().stream().<Adapter>map(InfoAdapter::new).toList();
    }

    private static QueueDescriptor.AdapterDescriptor describe(QueueAdapterInfo adapter) {
        boolean reads = adapter.kind().reads();
        long next = reads ? adapter.namedTailerIndex() : -1;
        return new QueueDescriptor.AdapterDescriptor(adapter.adapterId(), adapter.kind().name(), adapter.state().name(),
                next, QueueDescriptor.hex(next), reads ? adapter.lag() : 0, adapter.processedCount(),
                adapter.failedCount());
    }

    private record InfoAdapter(QueueAdapterInfo info) implements Adapter {
        @Override
        public String id() {
            return info.adapterId();
        }

        @Override
        public Path queue() {
            return info.queuePath();
        }

        @Override
        public long processed() {
            return info.processedCount();
        }

        @Override
        public long failed() {
            return info.failedCount();
        }

        @Override
        public long lag() {
            return info.kind().reads() ? info.lag() : 0;
        }
    }
}
