package io.cq.integration.observation;

import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.integration.BraveTracing;
import io.cq.integration.Flows;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.test.simple.SpansAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.Pollers;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace through a queue between two flows, with a real Brave tracer (W3C propagation): the outbound adapter's
 * append is a producer span whose context the excerpt carries, and the inbound adapter runs its flow in a consumer
 * span that continues it; the message source puts it on its messages for Spring Integration's own observation.
 */
class TracingThroughAdaptersTest {
    @TempDir
    Path dir;

    private final BraveTracing tracing = new BraveTracing();
    private final List<Handled> handled = new CopyOnWriteArrayList<>();

    record Handled(Message<?> message, TraceContext span) {
    }

    @AfterEach
    void closeTracing() {
        tracing.close();
    }

    private Handled awaitHandled() {
        await("the flow to handle the message").atMost(Duration.ofSeconds(20)).until(() -> !handled.isEmpty());
        return handled.getFirst();
    }

    @Test
    void shouldRunTheInboundFlowInTheTraceOfTheOutboundAdaptersSend() {
        try (MappedQueue trades = MappedQueue.builder(dir.resolve("trades")).build();
             AbstractApplicationContext context = Flows.runObserved(tracing.registry(), false,
                     IntegrationFlow.from("orders").handle(Cq.outboundAdapter(trades).adapterId("journal")).get(),
                     IntegrationFlow.from(Cq.inboundAdapter(trades).id("risk").payloadType(Trade.class))
                             .handle(message -> handled.add(new Handled(message, tracing.current()))).get())) {
            MessageChannel orders = context.getBean("orders", MessageChannel.class);

            TraceContext sender = tracing.inSpan(() -> orders.send(MessageBuilder.withPayload(
                    new Trade("AAPL", 100, 189.25)).build()));

            Handled flow = awaitHandled();
            assertThat(flow.message().getPayload()).isEqualTo(new Trade("AAPL", 100, 189.25));
            assertThat(flow.span().traceId()).as("the flow's trace").isEqualTo(sender.traceId());
            FinishedSpan send = tracing.await("trades send", sender.traceId());
            FinishedSpan receive = tracing.await("risk receive", sender.traceId());
            assertThat(send.getParentId()).isEqualTo(sender.spanId());
            assertThat(receive.getParentId()).as("the receive span's parent").isEqualTo(send.getSpanId());
            assertThat(flow.span().spanId()).as("the flow runs in the receive span").isEqualTo(receive.getSpanId());
            assertThat(flow.message().getHeaders().get("traceparent"))
                    .isEqualTo("00-" + sender.traceId() + "-" + send.getSpanId() + "-01");
            SpansAssert.assertThat(tracing.ofTrace(sender.traceId())).haveSameTraceId()
                    .hasASpanWithName("trades send", span -> span.hasKindEqualTo(Span.Kind.PRODUCER)
                            .hasTag("queue", "trades").hasTag("adapter", "journal")
                            .hasTagWithKey("cq.index"))
                    .hasASpanWithName("risk receive", span -> span.hasKindEqualTo(Span.Kind.CONSUMER)
                            .hasTag("adapter", "risk").hasRemoteServiceNameEqualTo("cq"));
        }
    }

    @Test
    void shouldKeepTextPlainWithoutTraceHeaders() {
        try (MappedQueue notes = MappedQueue.builder(dir.resolve("notes")).build();
             AbstractApplicationContext context = runNotes(notes)) {
            sendPlainTextInASpan(context);

            Handled flow = awaitHandled();
            assertThat(flow.message().getPayload()).isEqualTo("plain text");
            assertThat(flow.message().getHeaders()).doesNotContainKey("traceparent");
            try (ReadContext excerpt = notes.createTailer().readingDocument()) {
                assertThat(excerpt.bytes().length()).as("a text excerpt as any cq program writes it")
                        .isEqualTo("plain text".length());
                assertThat(Messages.readHeaders(excerpt, new TextHeaders())).isFalse();
            }
        }
    }

    @Test
    void shouldHandleAnExcerptWithoutTraceHeadersInANewTrace() {
        try (MappedQueue notes = MappedQueue.builder(dir.resolve("notes")).build();
             AbstractApplicationContext context = runNotes(notes)) {
            TraceContext sender = sendPlainTextInASpan(context);

            Handled flow = awaitHandled();
            assertThat(flow.span().traceId()).as("text carries only its bytes: a new trace")
                    .isNotEqualTo(sender.traceId());
            assertThat(flow.span().parentId()).isNull();
        }
    }

    /** A flow that writes channel notes's messages to {@code notes} and one that reads them back into handled. */
    private AbstractApplicationContext runNotes(MappedQueue notes) {
        return Flows.runObserved(tracing.registry(), false,
                IntegrationFlow.from("notes").handle(Cq.outboundAdapter(notes)).get(),
                IntegrationFlow.from(Cq.inboundAdapter(notes).id("reader"))
                        .handle(message -> handled.add(new Handled(message, tracing.current()))).get());
    }

    private TraceContext sendPlainTextInASpan(AbstractApplicationContext context) {
        return tracing.inSpan(() -> context.getBean("notes", MessageChannel.class)
                .send(MessageBuilder.withPayload("plain text").build()));
    }

    /**
     * A polled source cannot wrap the poller's flow in a span of its own; it puts the excerpt's trace headers on the
     * message, where Spring Integration's observation of the polling endpoint continues the trace.
     */
    @Test
    void shouldContinueTheTraceInAPolledFlowThroughIntegrationsOwnObservation() {
        try (MappedQueue fills = MappedQueue.builder(dir.resolve("fills")).build()) {
            TextHeaders headers = new TextHeaders();
            TraceContext sender = tracing.inSpan(() -> {
                // as a traced writer in another process leaves it: an object with the W3C trace context of its span
                TraceContext writer = tracing.current();
                headers.put("traceparent", "00-" + writer.traceId() + "-" + writer.spanId() + "-01");
                Messages.writeObject(fills.acquireAppender(), new Trade("MSFT", 5, 420.5), headers);
            });
            try (AbstractApplicationContext context = Flows.runObserved(tracing.registry(), true,
                    IntegrationFlow.from(Cq.messageSource(fills).adapterId("polled").payloadType(Trade.class),
                                    endpoint -> endpoint.poller(Pollers.fixedDelay(Duration.ofMillis(10))))
                            .handle(message -> handled.add(new Handled(message, tracing.current()))).get())) {
                Handled flow = awaitHandled();
                assertThat(flow.message().getPayload()).isEqualTo(new Trade("MSFT", 5, 420.5));
                assertThat(flow.span()).as("the flow runs in a span").isNotNull();
                assertThat(flow.span().traceId()).as("the writer's trace").isEqualTo(sender.traceId());
                // The poll's span finishes once the flow has returned, a moment after the handler ran.
                await("the poll's span").atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                        assertThat(tracing.ofTrace(sender.traceId()))
                                .as("Spring Integration's span of the poll, child of the writer's")
                                .anySatisfy(span -> {
                                    assertThat(span.getKind()).isEqualTo(Span.Kind.CONSUMER);
                                    assertThat(span.getParentId()).isEqualTo(sender.spanId());
                                }));
            }
        }
    }
}
