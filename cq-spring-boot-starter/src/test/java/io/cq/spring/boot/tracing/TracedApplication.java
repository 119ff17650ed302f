package io.cq.spring.boot.tracing;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.annotation.QueueWriter;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanReporter;
import org.awaitility.Awaitility;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;


/**
 * An application traced by Spring Boot's own Brave set-up (W3C propagation): a {@code @QueueWriter} and a class-level
 * listener of its calls, a listener of objects and one of text. Every listener notes the trace context it runs in;
 * every finished span is kept ({@link Spans}, a {@link SpanReporter} bean that Boot hands the spans to).
 */
@SpringBootApplication
public class TracedApplication {
    public record Order(String id, long quantity) {
    }

    @QueueWriter(queue = "orders")
    public interface OrderEvents {
        void placed(Order order);
    }

    /** Requests whose replies come back on the "replies" queue. */
    @QueueWriter(queue = "quotes", replyQueue = "replies")
    public interface QuoteRequests {
        CompletableFuture<Order> quote(Order order);
    }

    /** What a listener saw: the excerpt it handled and the span it was called in. */
    public record Delivery(String what, String traceId, String spanId, String parentId) {
    }

    /** The deliveries of every listener, in order. */
    public static final class Deliveries {
        private final List<Delivery> all = new CopyOnWriteArrayList<>();
        private final Tracer tracer;

        Deliveries(Tracer tracer) {
            this.tracer = tracer;
        }

        void record(String what) {
            Span span = tracer.currentSpan();
            TraceContext context = span == null ? null : span.context();
            all.add(context == null ? new Delivery(what, null, null, null)
                    : new Delivery(what, context.traceId(), context.spanId(), context.parentId()));
        }

        public Delivery await(String what) {
            return Awaitility.await("a listener to handle " + what).atMost(Duration.ofSeconds(20))
                    .until(() -> all.stream().filter(d -> d.what().equals(what)).findFirst().orElse(null),
                            Objects::nonNull);
        }
    }

    /** Every span the application finished. */
    public static final class Spans implements SpanReporter {
        private final List<FinishedSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public void report(FinishedSpan span) {
            finished.add(span);
        }

        @Override
        public void close() {
        }

        public List<FinishedSpan> ofTrace(String traceId) {
            return finished.stream().filter(span -> span.getTraceId().equals(traceId)).toList();
        }

        public FinishedSpan await(String name, String traceId) {
            return Awaitility.await("span '" + name + "' of trace " + traceId)
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> ofTrace(traceId).stream().filter(span -> span.getName().equals(name)).findFirst()
                            .orElse(null), Objects::nonNull);
        }
    }

    @Bean
    Spans spans() {
        return new Spans();
    }

    @Bean
    Deliveries deliveries(Tracer tracer) {
        return new Deliveries(tracer);
    }

    @Bean
    Book book(Deliveries deliveries) {
        return new Book(deliveries);
    }

    @Bean
    Ledger ledger(Deliveries deliveries) {
        return new Ledger(deliveries);
    }

    /** The calls of {@link OrderEvents}, read as a method reader would. */
    @QueueListener(queue = "orders", id = "book")
    public static class Book implements OrderEvents {
        private final Deliveries deliveries;

        Book(Deliveries deliveries) {
            this.deliveries = deliveries;
        }

        @Override
        public void placed(Order order) {
            deliveries.record("placed " + order.id());
        }
    }

    /** Objects and text. */
    public static class Ledger {
        private final Deliveries deliveries;

        Ledger(Deliveries deliveries) {
            this.deliveries = deliveries;
        }

        @QueueListener(queue = "fills", id = "ledger")
        void onFill(Order fill) {
            deliveries.record("fill " + fill.id());
        }

        @QueueListener(queue = "quotes", id = "quoter")
        Order onQuote(Order order) {
            deliveries.record("quote " + order.id());
            return new Order(order.id(), order.quantity() * 2);
        }

        @QueueListener(queue = "notes", id = "notes")
        void onNote(String note) {
            deliveries.record("note " + note);
        }
    }
}
