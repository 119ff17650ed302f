package io.cq.integration.config;

import io.cq.core.MappedQueue;
import io.cq.integration.QueueAdapterRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.context.IntegrationContextUtils;
import org.springframework.integration.dsl.IntegrationFlow;

/**
 * Registers the {@link QueueAdapterRegistry} that lists the cq adapters of the application, when Spring
 * Integration is on the class path and the application has at least one {@link MappedQueue} bean (declared by
 * the application or by the cq starter, whose auto-configuration runs first). The adapters themselves are
 * declared in flows ({@code Cq.inboundAdapter(queue)}...), because only the application knows its flows.
 */
@AutoConfiguration(afterName = {"io.cq.spring.boot.autoconfigure.CqAutoConfiguration",
        "org.springframework.boot.integration.autoconfigure.IntegrationAutoConfiguration"})
@ConditionalOnClass({IntegrationFlow.class, MappedQueue.class})
@ConditionalOnBean(MappedQueue.class)
public class CqIntegrationAutoConfiguration {

    /**
     * Spring Integration's infrastructure, when neither the application ({@code @EnableIntegration}) nor Boot's own
     * integration auto-configuration (in {@code spring-boot-integration}, absent with only cq's modules on the class
     * path) has set it up: without it, the application's flows and cq's adapters silently do nothing.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(name = IntegrationContextUtils.INTEGRATION_EVALUATION_CONTEXT_BEAN_NAME)
    @EnableIntegration
    static class IntegrationInfrastructure {
    }

    /** Lists every {@code QueueAdapterInfo} bean, for the starter's Actuator endpoint and metrics. */
    @Bean
    @ConditionalOnMissingBean
    public QueueAdapterRegistry cqQueueAdapterRegistry(ListableBeanFactory beanFactory) {
        return new QueueAdapterRegistry(beanFactory);
    }
}
