package io.cq.spring.boot.tracingflow;

import io.cq.core.MappedQueue;
import io.cq.integration.dsl.Cq;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanReporter;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.dsl.IntegrationFlow;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An application traced by Spring Boot's Brave set-up whose queue is read by a Spring Integration flow (cq's inbound
 * channel adapter) rather than a listener. Notes the span each message is handled in, and keeps every finished span.
 */
@SpringBootApplication
public class TracedFlowApplication {
    public record Entry(String id) {
    }

    /** The flow's messages with the trace and span ids it handled each in. */
    public static final List<String[]> HANDLED = new CopyOnWriteArrayList<>();
    public static final List<FinishedSpan> SPANS = new CopyOnWriteArrayList<>();

    @Bean
    SpanReporter spans() {
        return new SpanReporter() {
            @Override
            public void report(FinishedSpan span) {
                SPANS.add(span);
            }

            @Override
            public void close() {
            }
        };
    }

    @Bean
    IntegrationFlow auditFlow(@Qualifier("audit") MappedQueue audit, Tracer tracer) {
        return IntegrationFlow.from(Cq.inboundAdapter(audit).id("auditor").payloadType(Entry.class))
                .handle(Entry.class, (entry, headers) -> {
                    Span span = tracer.currentSpan();
                    HANDLED.add(new String[] {entry.id(), span.context().traceId(), span.context().spanId()});
                    return null;
                })
                .get();
    }
}
