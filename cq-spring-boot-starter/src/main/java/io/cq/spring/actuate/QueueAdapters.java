package io.cq.spring.actuate;

import java.nio.file.Path;
import java.util.List;

/**
 * The other consumers and producers of queues that the endpoint, health and metrics list beside the listeners:
 * cq's Spring Integration adapters, when that module is present ({@link IntegrationQueueAdapters}). Kept behind
 * this interface so that the rest of the actuator support loads without Spring Integration on the class path.
 */
public interface QueueAdapters {
    /** The adapters working on the queue in that directory. */
    List<QueueDescriptor.AdapterDescriptor> adaptersOf(Path queue);

    /** Every adapter, for metrics: its descriptor and the live figures behind it. */
    List<Adapter> all();

    /** One adapter as metrics read it (each call reads current values). */
    interface Adapter {
        String id();

        Path queue();

        long processed();

        long failed();

        long lag();
    }
}
