package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueAdapters;
import io.cq.spring.actuate.QueuesEndpoint;
import io.cq.spring.actuate.QueuesEndpointWebExtension;
import io.cq.spring.actuate.QueuesHealthIndicator;
import io.cq.spring.config.ListenerContainerRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Locale;
import java.util.Map;

/** The {@code queues} endpoint and health indicator, when the actuator is on the class path. */
@AutoConfiguration(after = CqListenerAutoConfiguration.class)
public final class CqActuatorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @EnableConfigurationProperties(QueuesEndpointProperties.class)
    static class EndpointConfiguration {
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        QueuesEndpoint queuesEndpoint(Map<String, MappedQueue> queues,
                                      ObjectProvider<ListenerContainerRegistry> registry,
                                      ObjectProvider<QueueAdapters> adapters, QueuesEndpointProperties properties) {
            return new QueuesEndpoint(queues, registry.getIfAvailable(), adapters.getIfAvailable(),
                    properties.getShowValues(), properties.getRoles());
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(QueuesEndpoint.class)
        QueuesEndpointWebExtension queuesEndpointWebExtension(QueuesEndpoint endpoint) {
            return new QueuesEndpointWebExtension(endpoint);
        }

        /**
         * Keeps the queues' key store passwords out of Boot's {@code env} and {@code configprops} endpoints even
         * where those show values, as the queues endpoint never shows them.
         */
        @Bean
        SanitizingFunction cqKeyStorePasswordSanitizer() {
            return SanitizingFunction.sanitizeValue().ifKeyMatches(CqActuatorAutoConfiguration::isKeyStorePassword);
        }
    }

    /** {@code cq.queues.<name>.encryption.key-store-password} in any form (keyStorePassword, ..._KEYSTOREPASSWORD). */
    static boolean isKeyStorePassword(String key) {
        String bare = key.toLowerCase(Locale.ROOT).replace('_', '.').replace("-", "");
        return bare.startsWith("cq.queues.") && bare.endsWith(".encryption.keystorepassword");
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(AbstractHealthIndicator.class)
    @EnableConfigurationProperties(QueuesEndpointProperties.class)
    static class HealthConfiguration {
        /** Health has no user to authorize: a queue's directory is shown there only when show-values is always. */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnEnabledHealthIndicator("queues")
        QueuesHealthIndicator queuesHealthIndicator(Map<String, MappedQueue> queues,
                                                    ObjectProvider<ListenerContainerRegistry> registry,
                                                    ObjectProvider<QueueAdapters> adapters,
                                                    QueuesEndpointProperties properties) {
            return new QueuesHealthIndicator(queues, registry.getIfAvailable(), adapters.getIfAvailable(),
                    properties.getShowValues() == Show.ALWAYS);
        }
    }
}
