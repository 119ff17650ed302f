package io.cq.spring.listener.invoke;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Wraps each listener call in a Micrometer {@link Observation} named {@code cq.listener}, with the low-cardinality
 * keys {@code queue} and {@code listener} and the high-cardinality key {@code cq.index}: a timer per listener
 * with Micrometer's handlers, and a span per excerpt with Micrometer Tracing. Used only when the application has
 * an {@link ObservationRegistry}; then each call allocates its observation.
 */
public final class ObservedListenerInvoker implements ListenerInvoker {
    public static final String NAME = "cq.listener";

    private final ListenerInvoker delegate;
    private final ObservationRegistry registry;
    private final String queue;
    private final String listener;

    public ObservedListenerInvoker(ListenerInvoker delegate, ObservationRegistry registry, String queue,
            String listener) {
        this.delegate = delegate;
        this.registry = registry;
        this.queue = queue;
        this.listener = listener;
    }

    @Override
    public void invoke(InboundExcerpt excerpt) throws Exception {
        Observation observation = Observation.createNotStarted(NAME, registry)
                .contextualName(listener + " receive")
                .lowCardinalityKeyValue("queue", queue)
                .lowCardinalityKeyValue("listener", listener)
                .highCardinalityKeyValue("cq.index", "0x" + Long.toHexString(excerpt.index()))
                .start();
        try (Observation.Scope ignored = observation.openScope()) {
            delegate.invoke(excerpt);
        } catch (Exception | Error e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    @Override
    public void retriesExhausted(InboundExcerpt excerpt, Exception error) {
        delegate.retriesExhausted(excerpt, error);
    }
}
