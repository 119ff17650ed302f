package io.cq.spring.boot.tracing;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.spring.boot.tracing.TracedApplication.Deliveries;
import io.cq.spring.boot.tracing.TracedApplication.Delivery;
import io.cq.spring.boot.tracing.TracedApplication.Order;
import io.cq.spring.boot.tracing.TracedApplication.OrderEvents;
import io.cq.spring.boot.tracing.TracedApplication.QuoteRequests;
import io.cq.spring.boot.tracing.TracedApplication.Spans;
import io.cq.spring.core.QueueTemplate;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.test.simple.SpansAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One trace from the code that sends to the listener that handles, with Spring Boot's Brave tracing as an application
 * gets it (W3C propagation, every trace sampled): the send is a producer span, child of the sender's span; the
 * listener runs in a consumer span that is the child of the send span, in the same trace.
 *
 * <p>One application for the whole class, as a running application sends many times: each test sends its own
 * orders and notes and waits for those, in a trace of its own.
 */
class TracingAcrossTheQueueTest {
    @TempDir
    static Path dir;

    private static ConfigurableApplicationContext context;
    private static Tracer tracer;
    private static ObservationRegistry registry;
    private static Deliveries deliveries;
    private static Spans spans;

    @BeforeAll
    static void startApplication() {
        context = new SpringApplicationBuilder(TracedApplication.class).web(WebApplicationType.NONE)
                .properties("cq.base-path=" + dir, "cq.queues.orders.roll-cycle=daily",
                        "cq.queues.fills.roll-cycle=daily", "cq.queues.notes.roll-cycle=daily",
                        "cq.queues.quotes.roll-cycle=daily", "cq.queues.replies.roll-cycle=daily",
                        "management.tracing.sampling.probability=1.0")
                .run();
        tracer = context.getBean(Tracer.class);
        registry = context.getBean(ObservationRegistry.class);
        deliveries = context.getBean(Deliveries.class);
        spans = context.getBean(Spans.class);
    }

    @AfterAll
    static void stopApplication() {
        context.close();
    }

    /** Runs {@code send} in an observation of its own, as a web request would, and returns that span's context. */
    private TraceContext inSpan(Runnable send) {
        TraceContext[] sender = new TraceContext[1];
        Observation.createNotStarted("checkout", registry).observe(() -> {
            sender[0] = tracer.currentSpan().context();
            send.run();
        });
        return sender[0];
    }

    /** The listener ran in the sender's trace, in a consumer span whose parent is the send's producer span. */
    private void assertContinued(TraceContext sender, Delivery delivery, String sendSpan, String receiveSpan) {
        assertThat(delivery.traceId()).as("the listener's trace").isEqualTo(sender.traceId());
        FinishedSpan send = spans.await(sendSpan, sender.traceId());
        FinishedSpan receive = spans.await(receiveSpan, sender.traceId());
        assertThat(send.getParentId()).as("the send span's parent").isEqualTo(sender.spanId());
        assertThat(receive.getParentId()).as("the listener span's parent").isEqualTo(send.getSpanId());
        assertThat(delivery.spanId()).as("the span the listener method ran in").isEqualTo(receive.getSpanId());
        SpansAssert.assertThat(spans.ofTrace(sender.traceId())).haveSameTraceId()
                .hasASpanWithName("checkout")
                .hasASpanWithName(sendSpan, span -> span.hasKindEqualTo(Span.Kind.PRODUCER)
                        .hasRemoteServiceNameEqualTo("cq").hasTagWithKey("cq.index"))
                .hasASpanWithName(receiveSpan, span -> span.hasKindEqualTo(Span.Kind.CONSUMER)
                        .hasTagWithKey("cq.index"));
    }

    @Test
    void shouldHandleAnObjectAppendedInsideASpanInTheSameTraceAsAChildOfTheSendSpan() {
        QueueTemplate template = context.getBean(QueueTemplate.class);

        TraceContext sender = inSpan(() -> template.append("fills", new Order("o-1", 10)));

        assertContinued(sender, deliveries.await("fill o-1"), "fills send", "ledger receive");
    }

    @Test
    void shouldContinueTheTraceOfAQueueWriterCallInAClassLevelListener() {
        OrderEvents orders = context.getBean(OrderEvents.class);

        TraceContext sender = inSpan(() -> orders.placed(new Order("o-2", 5)));

        assertContinued(sender, deliveries.await("placed o-2"), "orders send", "book receive");
    }

    @Test
    void shouldContinueTheTraceOfATemplateMethodWriterCall() {
        OrderEvents orders = context.getBean(QueueTemplate.class).methodWriter("orders", OrderEvents.class);

        TraceContext sender = inSpan(() -> orders.placed(new Order("o-3", 7)));

        assertContinued(sender, deliveries.await("placed o-3"), "orders send", "book receive");
    }

    @Test
    void shouldAnswerARequestOfTheTemplateInTheRequestersTrace() throws Exception {
        QueueTemplate template = context.getBean(QueueTemplate.class);
        List<CompletableFuture<Order>> reply = new ArrayList<>();

        TraceContext sender = inSpan(() -> reply.add(template.sendAndReceive("quotes", new Order("q-1", 3), Order.class,
                "replies", Duration.ofSeconds(20))));

        assertThat(reply.getFirst().get(20, TimeUnit.SECONDS)).isEqualTo(new Order("q-1", 6));
        assertContinued(sender, deliveries.await("quote q-1"), "quotes send", "quoter receive");
    }

    @Test
    void shouldAnswerARequestOfAQueueWriterFutureInTheRequestersTrace() throws Exception {
        QuoteRequests quotes = context.getBean(QuoteRequests.class);
        List<CompletableFuture<Order>> reply = new ArrayList<>();

        TraceContext sender = inSpan(() -> reply.add(quotes.quote(new Order("q-2", 4))));

        assertThat(reply.getFirst().get(20, TimeUnit.SECONDS)).isEqualTo(new Order("q-2", 8));
        assertContinued(sender, deliveries.await("quote q-2"), "quotes send", "quoter receive");
    }

    @Test
    void shouldWriteTheW3cTraceparentOfTheSendSpanIntoTheExcerpt() {
        QueueTemplate template = context.getBean(QueueTemplate.class);

        TraceContext sender = inSpan(() -> template.append("fills", new Order("o-4", 1)));

        FinishedSpan send = spans.await("fills send", sender.traceId());
        // The excerpt of this send: other tests append to fills too.
        TextHeaders headers = new TextHeaders();
        boolean withHeaders = false;
        Order order = null;
        try (ExcerptTailer tailer = context.getBean("fills", MappedQueue.class).createTailer()) {
            while (!new Order("o-4", 1).equals(order)) {
                try (ReadContext excerpt = tailer.readingDocument()) {
                    assertThat(excerpt.isPresent()).as("the excerpt of order o-4").isTrue();
                    withHeaders = Messages.readHeaders(excerpt, headers);
                    order = Messages.readObject(excerpt, Order.class);
                }
            }
        }
        assertThat(withHeaders).as("the excerpt of order o-4 has headers").isTrue();
        assertThat(headers.get("traceparent")).isEqualTo("00-" + sender.traceId() + "-" + send.getSpanId() + "-01");
    }

    @Test
    void shouldCarryTheTraceWithTextAppendedAsAnObjectButNotWithRawText() {
        QueueTemplate template = context.getBean(QueueTemplate.class);

        TraceContext asObject = inSpan(() -> template.append("notes", "as an object"));
        TraceContext asText = inSpan(() -> template.appendText("notes", "as text"));

        assertContinued(asObject, deliveries.await("note as an object"), "notes send", "notes receive");
        Delivery raw = deliveries.await("note as text");
        assertThat(raw.traceId()).as("a text excerpt carries only its text: a new trace").isNotNull()
                .isNotEqualTo(asText.traceId());
        assertThat(raw.parentId()).isNull();
        assertThat(spans.await("notes send", asText.traceId()).getParentId())
                .as("the send itself is still observed, in the sender's trace").isEqualTo(asText.spanId());
    }

    @Test
    void shouldHandleExcerptsWrittenWithoutTraceHeadersInANewTrace() {
        MappedQueue fills = context.getBean("fills", MappedQueue.class);
        MappedQueue orders = context.getBean("orders", MappedQueue.class);
        // written as before tracing, and as any cq-core program writes: inside a span, but without headers
        inSpan(() -> Messages.writeObject(fills.acquireAppender(), new Order("o-5", 2)));
        inSpan(() -> Messages.methodWriter(orders.acquireAppender(), OrderEvents.class).placed(new Order("o-6", 3)));

        for (String what : new String[] {"fill o-5", "placed o-6"}) {
            Delivery delivery = deliveries.await(what);
            assertThat(delivery.traceId()).as(what + ": handled in a span").isNotNull();
            assertThat(delivery.parentId()).as(what + ": of a trace of its own").isNull();
        }
    }
}
