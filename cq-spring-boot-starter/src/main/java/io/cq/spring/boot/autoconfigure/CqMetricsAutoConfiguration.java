package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueAdapters;
import io.cq.spring.actuate.QueueMetrics;
import io.cq.spring.config.ListenerContainerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import java.util.Map;

/** Micrometer meters for the queues and listeners, when Micrometer is on the class path and a registry exists. */
@AutoConfiguration(after = CqListenerAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
public final class CqMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    QueueMetrics queueMetrics(ObjectProvider<MeterRegistry> meterRegistry, Map<String, MappedQueue> queues,
                              ObjectProvider<ListenerContainerRegistry> listeners,
                              ObjectProvider<QueueAdapters> adapters) {
        return new QueueMetrics(meterRegistry, queues, listeners.getIfAvailable(), adapters.getIfAvailable());
    }
}
