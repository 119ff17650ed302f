package io.cq.spring.boot.integration;

import io.cq.core.MappedQueue;
import io.cq.integration.config.CqIntegrationAutoConfiguration;
import io.cq.integration.dsl.Cq;
import io.cq.spring.actuate.QueueDescriptor;
import io.cq.spring.actuate.QueuesEndpoint;
import io.cq.spring.actuate.QueuesHealthIndicator;
import io.cq.spring.boot.autoconfigure.CqActuatorAutoConfiguration;
import io.cq.spring.boot.autoconfigure.CqAutoConfiguration;
import io.cq.spring.boot.autoconfigure.CqIntegrationAdaptersAutoConfiguration;
import io.cq.spring.boot.autoconfigure.CqListenerAutoConfiguration;
import io.cq.spring.boot.autoconfigure.CqMetricsAutoConfiguration;
import io.cq.spring.core.QueueTemplate;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** cq's Spring Integration adapters listed by the queues endpoint, health and metrics, like listeners. */
class AdaptersInActuatorTest {
    @TempDir
    Path dir;

    @Configuration(proxyBeanMethods = false)
    @EnableIntegration
    static class Flows {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Bean
        IntegrationFlow riskFlow(MappedQueue trades) {
            return IntegrationFlow.from(Cq.inboundAdapter(trades).id("risk").payloadType(String.class))
                    .handle(String.class, (trade, headers) -> {
                        if (trade.equals("an error")) {
                            throw new AssertionError("a flow's Error");
                        }
                        received.add(trade);
                        return null;
                    })
                    .get();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    /** Runs the check in an application whose adapter "risk" has handled two trades. */
    private void afterTheAdapterHandledTwoTrades(ContextConsumer<AssertableApplicationContext> check) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class,
                        CqIntegrationAutoConfiguration.class, CqIntegrationAdaptersAutoConfiguration.class,
                        CqActuatorAutoConfiguration.class, CqMetricsAutoConfiguration.class))
                .withUserConfiguration(Flows.class)
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.trades.roll-cycle=daily",
                        "management.endpoints.web.exposure.include=queues")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(QueueTemplate.class).appendText("trades", "t-1");
                    context.getBean(QueueTemplate.class).appendText("trades", "t-2");
                    Flows flows = context.getBean(Flows.class);
                    await().atMost(Duration.ofSeconds(10)).until(() -> flows.received.size() == 2);
                    check.accept(context);
                });
    }

    @Test
    void shouldListAnAdapterInTheQueuesEndpointLikeAListener() {
        afterTheAdapterHandledTwoTrades(context -> {
            QueueDescriptor trades = context.getBean(QueuesEndpoint.class).queue(SecurityContext.NONE, "trades");
            assertThat(trades.adapters()).singleElement().satisfies(adapter -> {
                assertThat(adapter.id()).isEqualTo("risk");
                assertThat(adapter.kind()).isEqualTo("INBOUND_CHANNEL_ADAPTER");
                assertThat(adapter.state()).isEqualTo("RUNNING");
                assertThat(adapter.processed()).isEqualTo(2);
            });
        });
    }

    @Test
    void shouldShowTheLagOfAnAdapterInTheQueuesEndpoint() {
        afterTheAdapterHandledTwoTrades(context -> await().atMost(Duration.ofSeconds(5)).until(() ->
                context.getBean(QueuesEndpoint.class)
                        .queue(SecurityContext.NONE, "trades").adapters().getFirst().lag() == 0));
    }

    @Test
    void shouldReportARunningAdapterInHealthAsUp() {
        afterTheAdapterHandledTwoTrades(context -> {
            Health health = context.getBean(QueuesHealthIndicator.class).health(true);
            assertThat(health.getDetails().get("trades").toString()).contains("adapters={risk=RUNNING}");
            assertThat(health.getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void shouldCountWhatAnAdapterProcessedInItsMetric() {
        afterTheAdapterHandledTwoTrades(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("cq.adapter.processed").tag("adapter", "risk").tag("queue", "trades")
                    .functionCounter().count()).isEqualTo(2.0);
        });
    }

    @Test
    void shouldReportAnAdapterWhoseFlowFailedWithAnErrorInHealthAsDown() {
        afterTheAdapterHandledTwoTrades(context -> {
            context.getBean(QueueTemplate.class).appendText("trades", "an error");
            await().atMost(Duration.ofSeconds(10)).until(() -> context.getBean(QueuesHealthIndicator.class)
                    .health(true).getStatus().equals(Status.DOWN));
            assertThat(context.getBean(QueuesHealthIndicator.class).health(true).getDetails().get("trades")
                    .toString()).contains("adapters={risk=FAILED}");
        });
    }
}
