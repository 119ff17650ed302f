package io.cq.integration;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.sampler.Sampler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveFinishedSpan;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import org.awaitility.Awaitility;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real Brave tracer behind Micrometer Tracing, wired into an {@link ObservationRegistry} with the handlers Spring
 * Boot registers (propagating sender, propagating receiver, default), W3C propagation, every trace sampled, and
 * every finished span kept.
 */
public final class BraveTracing implements AutoCloseable {
    private final List<FinishedSpan> finished = new CopyOnWriteArrayList<>();
    private final Tracing tracing;
    private final Tracer tracer;
    private final ObservationRegistry registry = ObservationRegistry.create();

    public BraveTracing() {
        BraveBaggageManager baggage = new BraveBaggageManager();
        tracing = Tracing.newBuilder()
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
                .propagationFactory(new W3CPropagation(baggage, List.of()))
                .traceId128Bit(true)
                .sampler(Sampler.ALWAYS_SAMPLE)
                .addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                        finished.add(BraveFinishedSpan.fromBrave(span));
                        return true;
                    }
                })
                .build();
        tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                baggage);
        BravePropagator propagator = new BravePropagator(tracing);
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    }

    public ObservationRegistry registry() {
        return registry;
    }

    /** The context of the span current on the calling thread, or null outside any. */
    public TraceContext current() {
        io.micrometer.tracing.Span span = tracer.currentSpan();
        return span == null ? null : span.context();
    }

    /** Runs {@code work} in an observation of its own, as a web request would, and returns that span's context. */
    public TraceContext inSpan(Runnable work) {
        AtomicReference<TraceContext> sender = new AtomicReference<>();
        Observation.createNotStarted("checkout", registry).observe(() -> {
            sender.set(current());
            work.run();
        });
        return sender.get();
    }

    public List<FinishedSpan> ofTrace(String traceId) {
        return finished.stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    public FinishedSpan await(String name, String traceId) {
        return Awaitility.await("span '" + name + "' of trace " + traceId).atMost(Duration.ofSeconds(20))
                .until(() -> ofTrace(traceId).stream().filter(span -> span.getName().equals(name)).findFirst()
                        .orElse(null), Objects::nonNull);
    }

    @Override
    public void close() {
        tracing.close();
    }
}
