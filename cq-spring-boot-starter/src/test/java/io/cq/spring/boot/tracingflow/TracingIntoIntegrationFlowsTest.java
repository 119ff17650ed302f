package io.cq.spring.boot.tracingflow;

import io.cq.spring.boot.tracingflow.TracedFlowApplication.Entry;
import io.cq.spring.core.QueueTemplate;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code QueueTemplate} send in one part of an application and a Spring Integration flow reading the queue in
 * another make one trace: the flow runs in the inbound adapter's consumer span, the child of the send's span.
 */
class TracingIntoIntegrationFlowsTest {
    @TempDir
    Path dir;

    @Test
    void shouldRunTheInboundAdaptersFlowInTheTraceOfATemplateSend() {
        TracedFlowApplication.HANDLED.clear();
        TracedFlowApplication.SPANS.clear();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TracedFlowApplication.class)
                .web(WebApplicationType.NONE)
                .properties("cq.base-path=" + dir, "cq.queues.audit.roll-cycle=daily",
                        "management.tracing.sampling.probability=1.0")
                .run()) {
            Tracer tracer = context.getBean(Tracer.class);
            AtomicReference<TraceContext> sender = new AtomicReference<>();
            Observation.createNotStarted("checkout", context.getBean(ObservationRegistry.class)).observe(() -> {
                sender.set(tracer.currentSpan().context());
                context.getBean(QueueTemplate.class).append("audit", new Entry("e-1"));
            });

            String[] handled = await("the flow to handle e-1").atMost(Duration.ofSeconds(20))
                    .until(() -> TracedFlowApplication.HANDLED.stream().filter(h -> h[0].equals("e-1")).findFirst()
                            .orElse(null), Objects::nonNull);
            FinishedSpan send = awaitSpan("audit send", sender.get().traceId());
            FinishedSpan receive = awaitSpan("auditor receive", sender.get().traceId());

            assertThat(handled[1]).as("the flow's trace").isEqualTo(sender.get().traceId());
            assertThat(handled[2]).as("the span the flow ran in").isEqualTo(receive.getSpanId());
            assertThat(receive.getKind()).isEqualTo(Span.Kind.CONSUMER);
            assertThat(receive.getParentId()).isEqualTo(send.getSpanId());
            assertThat(send.getParentId()).isEqualTo(sender.get().spanId());
        }
    }

    private static FinishedSpan awaitSpan(String name, String traceId) {
        return await("span '" + name + "'").atMost(Duration.ofSeconds(20))
                .until(() -> TracedFlowApplication.SPANS.stream()
                        .filter(span -> span.getName().equals(name) && span.getTraceId().equals(traceId))
                        .findFirst().orElse(null), Objects::nonNull);
    }
}
