package io.cq.integration;

import org.springframework.beans.factory.ListableBeanFactory;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Lists the cq adapters of an application context: every bean that is a {@link QueueAdapterInfo}, including
 * those of flows registered at run time. Reads the context on each call (adapters come and go with dynamic
 * flows), so call it at monitoring rates. Thread-safe.
 */
public final class QueueAdapterRegistry {
    private final ListableBeanFactory beans;

    /** A registry over the adapters defined in {@code beans}. */
    public QueueAdapterRegistry(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /** All adapters, by id. */
    public List<QueueAdapterInfo> adapters() {
        return beans.getBeansOfType(QueueAdapterInfo.class, false, false).values().stream()
                .sorted(Comparator.comparing(QueueAdapterInfo::adapterId))
                .toList();
    }

    /** The adapter with this id, if there is one. */
    public Optional<QueueAdapterInfo> adapter(String id) {
        return adapters().stream().filter(adapter -> adapter.adapterId().equals(id)).findFirst();
    }
}
