package io.cq.spring.boot.tracing;

import io.cq.spring.boot.tracing.TracedApplication.Order;
import io.cq.spring.boot.tracing.TracedApplication.OrderEvents;
import io.cq.spring.boot.tracing.TracedApplication.Spans;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The writing process of {@link TracingAcrossProcessesTest}: {@link TracedApplication} with its listeners stopped
 * (the other process runs them), which places one order through its {@code @QueueWriter} inside a span and prints
 * {@code SENT trace=<trace id> send=<span id of the send>}.
 */
public final class TracedWriterMain {
    private TracedWriterMain() {
    }

    public static void main(String[] args) {
        String basePath = args[0];
        String orderId = args[1];
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TracedApplication.class)
                .web(WebApplicationType.NONE)
                .properties("cq.base-path=" + basePath, "cq.queues.orders.roll-cycle=daily",
                        "cq.queues.fills.roll-cycle=daily", "cq.queues.notes.roll-cycle=daily",
                        "cq.queues.quotes.roll-cycle=daily", "cq.queues.replies.roll-cycle=daily",
                        "cq.listener.auto-startup=false", "management.tracing.sampling.probability=1.0",
                        "spring.main.banner-mode=off")
                .run()) {
            Tracer tracer = context.getBean(Tracer.class);
            OrderEvents orders = context.getBean(OrderEvents.class);
            AtomicReference<TraceContext> sender = new AtomicReference<>();
            Observation.createNotStarted("checkout", context.getBean(ObservationRegistry.class)).observe(() -> {
                sender.set(tracer.currentSpan().context());
                orders.placed(new Order(orderId, 1));
            });
            FinishedSpan send = context.getBean(Spans.class).await("orders send", sender.get().traceId());
            System.out.println("SENT trace=" + sender.get().traceId() + " send=" + send.getSpanId());
        }
    }
}
