package io.cq.spring.boot.autoconfigure;

import io.cq.integration.QueueAdapterRegistry;
import io.cq.spring.actuate.IntegrationQueueAdapters;
import io.cq.spring.actuate.QueueAdapters;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * cq's Spring Integration adapters in the queues endpoint, health and metrics, when the application uses them
 * (cq-spring-integration on the class path, and its adapter registry defined).
 */
@AutoConfiguration(afterName = "io.cq.integration.config.CqIntegrationAutoConfiguration",
        before = {CqActuatorAutoConfiguration.class, CqMetricsAutoConfiguration.class})
@ConditionalOnClass(name = "io.cq.integration.QueueAdapterRegistry")
public final class CqIntegrationAdaptersAutoConfiguration {

    @Bean
    @ConditionalOnBean(QueueAdapterRegistry.class)
    @ConditionalOnMissingBean(QueueAdapters.class)
    QueueAdapters queueAdapters(QueueAdapterRegistry registry) {
        return new IntegrationQueueAdapters(registry);
    }
}
