package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.core.QueueWriterRegistrar;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.util.Map;

/**
 * The queues of {@code cq.queues} as {@link MappedQueue} beans, a {@link QueueTemplate} over every MappedQueue
 * bean (the application's own ones included), and a bean for every {@code @QueueWriter} interface; both observe
 * their sends with the application's {@link ObservationRegistry}, when it has one.
 */
@AutoConfiguration
@EnableConfigurationProperties(CqProperties.class)
@Import({QueueBeanRegistrar.class, QueueWriterRegistrar.class})
public final class CqAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MappedQueueOpener mappedQueueOpener(CqProperties properties,
            ObjectProvider<MappedQueueBuilderCustomizer> customizers) {
        return new MappedQueueOpener(properties, customizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    QueueTemplate queueTemplate(Map<String, MappedQueue> queues, ObjectProvider<ObservationRegistry> observations) {
        return new QueueTemplate(queues, observations.getIfAvailable());
    }
}
