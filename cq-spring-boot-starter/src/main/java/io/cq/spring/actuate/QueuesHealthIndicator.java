package io.cq.spring.actuate;

import io.cq.core.DiskSpace;
import io.cq.core.MappedQueue;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Health {@code queues}: DOWN when a queue's file system has less free space than its warning threshold
 * ({@code cq.queues.<name>.disk-space-warning-*}), when a writable queue's directory is no longer writable, or when
 * a listener or a Spring Integration adapter was stopped by an error (FAILED). Details give the figures per queue.
 */
public final class QueuesHealthIndicator extends AbstractHealthIndicator {
    /** The state a listener or a Spring Integration adapter stopped by a failure reports. */
    private static final String FAILED = "FAILED";

    private final Map<String, MappedQueue> queues;
    private final ListenerContainerRegistry registry;
    private final QueueAdapters adapters;
    private final boolean showPaths;

    public QueuesHealthIndicator(Map<String, MappedQueue> queues, @Nullable ListenerContainerRegistry registry) {
        this(queues, registry, null);
    }

    /** @param adapters the Spring Integration adapters whose states the details list, or null */
    public QueuesHealthIndicator(Map<String, MappedQueue> queues, @Nullable ListenerContainerRegistry registry,
                                 @Nullable QueueAdapters adapters) {
        this(queues, registry, adapters, true);
    }

    /**
     * @param adapters  the Spring Integration adapters whose states the details list, or null
     * @param showPaths whether the details name each queue's directory ("******" otherwise)
     */
    public QueuesHealthIndicator(Map<String, MappedQueue> queues, @Nullable ListenerContainerRegistry registry,
                                 @Nullable QueueAdapters adapters, boolean showPaths) {
        super("Queue health check failed");
        this.queues = new TreeMap<>(queues);
        this.registry = registry;
        this.adapters = adapters;
        this.showPaths = showPaths;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean up = true;
        for (Map.Entry<String, MappedQueue> entry : queues.entrySet()) {
            MappedQueue queue = entry.getValue();
            DiskSpace disk = queue.diskSpace();
            boolean writable = queue.isReadOnly() || Files.isWritable(queue.path());
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("path", showPaths ? queue.path().toString() : QueueDescriptor.HIDDEN);
            details.put("diskFreeBytes", disk.usableBytes());
            details.put("diskTotalBytes", disk.totalBytes());
            details.put("diskThresholdBytes", disk.warningBytes());
            details.put("diskLow", disk.low());
            details.put("writable", writable);
            details.put("filesystem", queue.filesystem().type());
            details.put("localFilesystem", queue.filesystem().isLocal());
            Map<String, String> listeners = new TreeMap<>();
            boolean listenerFailed = false;
            if (registry != null) {
                for (QueueListenerContainer container : registry.containers()) {
                    if (container.queue() == queue) {
                        listeners.put(container.id(), container.state().name());
                        listenerFailed |= container.state() == ListenerState.FAILED;
                    }
                }
            }
            details.put("listeners", listeners);
            boolean adapterFailed = false;
            if (adapters != null) {
                Map<String, String> adapterStates = new TreeMap<>();
                adapters.adaptersOf(queue.path()).forEach(adapter -> adapterStates.put(adapter.id(), adapter.state()));
                details.put("adapters", adapterStates);
                adapterFailed = adapterStates.containsValue(FAILED);
            }
            up &= !disk.low() && writable && !listenerFailed && !adapterFailed;
            builder.withDetail(entry.getKey(), details);
        }
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
