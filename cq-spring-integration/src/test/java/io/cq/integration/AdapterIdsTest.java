package io.cq.integration;

import io.cq.core.MappedQueue;
import io.cq.integration.dsl.Cq;
import io.cq.integration.outbound.QueueMessageHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.annotation.ServiceActivator;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.context.IntegrationFlowContext;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ids monitoring lists adapters under (docs/spring-integration.md, "Monitoring"). */
class AdapterIdsTest {
    @TempDir
    static Path dir;

    @Test
    void shouldListWritersWithoutAnIdUnderTheirFlowQueueAndRoleInsteadOfSpringsGeneratedNames() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Writers.class)) {
            IntegrationFlowContext flows = context.getBean(IntegrationFlowContext.class);
            MappedQueue deadLetters = context.getBean("deadLetterQueue", MappedQueue.class);
            flows.registration(IntegrationFlow.from("late").handle(Cq.outboundAdapter(deadLetters)).get())
                    .id("lateFlow").register();
            flows.registration(IntegrationFlow.from("anonymous").handle(Cq.outboundAdapter(deadLetters)).get())
                    .register();

            assertThat(writerIds(context)).containsExactlyInAnyOrder(
                    "deadLetters.dead-letters-writer",
                    "deadLetters.dead-letters-writer-2",
                    "deadLetters.audit-writer-3",
                    "journal.dead-letters-gateway",
                    "asking.audit-request-gateway",
                    "audited",
                    "explicit",
                    "annotatedWriter",
                    "fanOut.subFlow#0.audit-writer",
                    "fanOut.subFlow#1.dead-letters-writer",
                    "lateFlow.dead-letters-writer",
                    "StandardIntegrationFlow#0.dead-letters-writer");
        }
    }

    @Test
    void shouldDeriveTheSameWriterIdsOnEveryStart() {
        List<String> first;
        try (AbstractApplicationContext context = new AnnotationConfigApplicationContext(Writers.class)) {
            first = writerIds(context);
        }
        try (AbstractApplicationContext context = new AnnotationConfigApplicationContext(Writers.class)) {
            assertThat(writerIds(context)).isEqualTo(first).doesNotHaveDuplicates();
        }
    }

    @Test
    void shouldRefuseReadersWithoutAnIdBecauseTheQueueKeepsTheirPositionUnderIt() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("orders")).build()) {
            assertThatThrownBy(() -> Flows.run(IntegrationFlow.from(Cq.inboundAdapter(queue))
                    .handle((MessageHandler) message -> { }).get()))
                    .rootCause()
                    .hasMessageContaining("cq inbound channel adapter reading queue " + queue.path() + " has no id "
                            + "(Spring generated 'flow0.cq:inbound-channel-adapter#0')")
                    .hasMessageContaining("names the named tailer under which the queue keeps its position")
                    .hasMessageContaining(".id(\"orders-in\")");
            assertThatThrownBy(() -> Flows.run(IntegrationFlow.from("orders")
                    .channel(Cq.durableChannel(queue))
                    .handle((MessageHandler) message -> { }, endpoint -> endpoint.poller(poller -> poller
                            .fixedDelay(Duration.ofMillis(10)))).get()))
                    .rootCause()
                    .hasMessageContaining("cq durable channel reading queue " + queue.path() + " has no id")
                    .hasMessageContaining(".consumerName");
            assertThat(queue.namedTailers()).as("no tailer was created under a generated name").isEmpty();
        }
    }

    private static List<String> writerIds(AbstractApplicationContext context) {
        return new QueueAdapterRegistry(context).adapters().stream()
                .filter(adapter -> adapter.kind() == QueueAdapterInfo.Kind.OUTBOUND_HANDLER)
                .map(QueueAdapterInfo::adapterId).toList();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableIntegration
    static class Writers {
        @Bean(destroyMethod = "close")
        MappedQueue deadLetterQueue() {
            return MappedQueue.builder(dir.resolve("dead-letters")).build();
        }

        @Bean(destroyMethod = "close")
        MappedQueue auditQueue() {
            return MappedQueue.builder(dir.resolve("audit")).build();
        }

        /** Three writers of one kind in one flow, two to one queue (only their names matter here). */
        @Bean
        IntegrationFlow deadLetters(MappedQueue deadLetterQueue, MappedQueue auditQueue) {
            return IntegrationFlow.from("failed")
                    .handle(Cq.outboundAdapter(deadLetterQueue))
                    .handle(Cq.outboundAdapter(deadLetterQueue))
                    .handle(Cq.outboundAdapter(auditQueue))
                    .get();
        }

        @Bean
        IntegrationFlow journal(MappedQueue deadLetterQueue) {
            return IntegrationFlow.from("journalIn").handle(Cq.outboundGateway(deadLetterQueue)).get();
        }

        @Bean
        IntegrationFlow asking(MappedQueue auditQueue, MappedQueue deadLetterQueue) {
            return IntegrationFlow.from("askIn").handle(Cq.requestReplyGateway(auditQueue, deadLetterQueue)).get();
        }

        @Bean
        IntegrationFlow endpointWithAnId(MappedQueue auditQueue) {
            return IntegrationFlow.from("auditIn").handle(Cq.outboundAdapter(auditQueue), e -> e.id("audited")).get();
        }

        @Bean
        IntegrationFlow adapterWithAnId(MappedQueue auditQueue) {
            return IntegrationFlow.from("explicitIn").handle(Cq.outboundAdapter(auditQueue).adapterId("explicit"))
                    .get();
        }

        @Bean
        IntegrationFlow fanOut(MappedQueue deadLetterQueue, MappedQueue auditQueue) {
            return IntegrationFlow.from("fanOutIn").publishSubscribeChannel(channel -> channel
                    .subscribe(flow -> flow.handle(Cq.outboundAdapter(auditQueue)))
                    .subscribe(flow -> flow.handle(Cq.outboundAdapter(deadLetterQueue))))
                    .get();
        }

        @Bean
        @ServiceActivator(inputChannel = "annotatedIn")
        QueueMessageHandler annotatedWriter(MappedQueue auditQueue) {
            return new QueueMessageHandler(auditQueue);
        }
    }
}
