package io.cq.integration.config;

import io.cq.core.MappedQueue;
import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.QueueAdapterRegistry;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CqIntegrationAutoConfigurationTest {
    @TempDir
    static Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(CqIntegrationAutoConfiguration.class));

    @Test
    void shouldListEveryAdapterWithItsQueueTailerPositionStateAndCounts() {
        runner.withUserConfiguration(QueueAndFlows.class).run(context -> {
            QueueAdapterRegistry registry = context.getBean(QueueAdapterRegistry.class);
            MappedQueue queue = context.getBean(MappedQueue.class);
            long index = queue.acquireAppender().writeText("tick");

            QueueAdapterInfo reader = registry.adapter("ticks-reader").orElseThrow();
            await().until(() -> reader.processedCount() == 1 && reader.namedTailerIndex() == index + 1);
            assertThat(reader.kind()).isEqualTo(QueueAdapterInfo.Kind.INBOUND_CHANNEL_ADAPTER);
            assertThat(reader.queueName()).isEqualTo("ticks");
            assertThat(reader.queuePath()).isEqualTo(queue.path());
            assertThat(reader.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
            assertThat(reader.lag()).isZero();
            assertThat(reader.failedCount()).isZero();

            assertThat(registry.adapters()).extracting(QueueAdapterInfo::adapterId)
                    .containsExactly("ticks-reader", "ticks-writer");
            assertThat(registry.adapter("ticks-writer").orElseThrow().kind())
                    .isEqualTo(QueueAdapterInfo.Kind.OUTBOUND_HANDLER);
        });
    }

    @Test
    void shouldRunTheApplicationsFlowsWithoutEnableIntegrationOrBootsIntegrationModule() {
        runner.withUserConfiguration(QueueAndFlowsOnly.class).run(context -> {
            QueueAdapterRegistry registry = context.getBean(QueueAdapterRegistry.class);
            MappedQueue queue = context.getBean(MappedQueue.class);
            long index = queue.acquireAppender().writeText("tick");
            QueueAdapterInfo reader = registry.adapter("plain-reader").orElseThrow();
            await().until(() -> reader.processedCount() >= 1 && reader.namedTailerIndex() >= index + 1);
            assertThat(reader.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
        });
    }

    @Test
    void shouldStayAwayWithoutAMappedQueueBean() {
        runner.run(context -> assertThat(context).doesNotHaveBean(QueueAdapterRegistry.class));
    }

    @Test
    void shouldStayAwayWithoutSpringIntegration() {
        runner.withUserConfiguration(QueueOnly.class)
                .withClassLoader(new FilteredClassLoader(IntegrationFlow.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(QueueAdapterRegistry.class));
    }

    @Test
    void shouldBackOffWhenTheApplicationHasItsOwnRegistry() {
        runner.withUserConfiguration(QueueOnly.class)
                .withBean("myRegistry", QueueAdapterRegistry.class,
                () -> new QueueAdapterRegistry(new DefaultListableBeanFactory()))
                .run(context -> assertThat(context).getBean(QueueAdapterRegistry.class)
                .isSameAs(context.getBean("myRegistry")));
    }

    @Configuration(proxyBeanMethods = false)
    static class QueueOnly {
        @Bean(destroyMethod = "close")
        MappedQueue ticks() {
            return MappedQueue.builder(dir.resolve("ticks")).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableIntegration
    static class QueueAndFlows extends QueueOnly {
        @Bean
        IntegrationFlow readTicks(MappedQueue ticks) {
            return IntegrationFlow.from(Cq.inboundAdapter(ticks).id("ticks-reader")).nullChannel();
        }

        @Bean
        IntegrationFlow writeTicks(MappedQueue ticks) {
            return IntegrationFlow.from("ticksIn").handle(Cq.outboundAdapter(ticks).adapterId("ticks-writer")).get();
        }
    }

    /** Flows as an application writes them with only cq's modules: no {@code @EnableIntegration}. */
    @Configuration(proxyBeanMethods = false)
    static class QueueAndFlowsOnly {
        @Bean(destroyMethod = "close")
        MappedQueue plainTicks() {
            return MappedQueue.builder(dir.resolve("plain-ticks")).build();
        }

        @Bean
        IntegrationFlow readPlainTicks(MappedQueue ticks) {
            return IntegrationFlow.from(Cq.inboundAdapter(ticks).id("plain-reader")).nullChannel();
        }
    }
}
