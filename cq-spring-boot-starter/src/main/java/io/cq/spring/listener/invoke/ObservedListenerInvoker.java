package io.cq.spring.listener.invoke;

import io.cq.spring.support.micrometer.DefaultQueueListenerObservationConvention;
import io.cq.spring.support.micrometer.ExcerptReceiverContext;
import io.cq.spring.support.micrometer.QueueObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Wraps each listener call in a Micrometer {@link Observation} named {@code cq.listener}
 * ({@link QueueObservation#LISTENER}): a timer per listener with Micrometer's handlers, and with Micrometer Tracing
 * a consumer span per excerpt that continues the writer's trace from the excerpt's headers (a new trace when it
 * has none). Used only when the application has an {@link ObservationRegistry}; then each call allocates its
 * observation.
 */
public final class ObservedListenerInvoker implements ListenerInvoker {
    public static final String NAME = DefaultQueueListenerObservationConvention.NAME;

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
        ExcerptReceiverContext context = new ExcerptReceiverContext(queue, listener, excerpt.index(),
                excerpt.headers());
        Observation observation = QueueObservation.LISTENER.observation(null,
                DefaultQueueListenerObservationConvention.INSTANCE, () -> context, registry).start();
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
