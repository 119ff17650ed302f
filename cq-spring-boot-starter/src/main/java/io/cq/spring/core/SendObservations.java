package io.cq.spring.core;

import io.cq.core.message.TextHeaders;
import io.cq.spring.support.micrometer.DefaultQueueSendObservationConvention;
import io.cq.spring.support.micrometer.ExcerptSenderContext;
import io.cq.spring.support.micrometer.QueueObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes the sends of a {@link QueueTemplate} and of {@code @QueueWriter} beans as {@code cq.send}
 * ({@link QueueObservation#SEND}). The observation starts before the excerpt is written: Micrometer Tracing's
 * propagating handler then puts the trace context into the lease's headers, which the message written next
 * carries. Without a registry there is no instance ({@link #of}), and a send allocates nothing for observation.
 */
final class SendObservations {
    private final ObservationRegistry registry;

    private SendObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    /** Null, meaning sends are not observed, without a registry or with the no-op one. */
    static @Nullable SendObservations of(@Nullable ObservationRegistry registry) {
        return registry == null || registry.isNoop() ? null : new SendObservations(registry);
    }

    /** Starts observing one send whose excerpt will carry {@code headers}, and makes it the current observation. */
    Send start(String queueName, TextHeaders headers) {
        ExcerptSenderContext context = new ExcerptSenderContext(queueName, headers);
        Observation observation = QueueObservation.SEND.observation(null,
                DefaultQueueSendObservationConvention.INSTANCE, () -> context, registry).start();
        return new Send(context, headers, observation, observation.openScope());
    }

    /** One send being observed; {@link #stop()} it in a finally block. */
    static final class Send {
        private final ExcerptSenderContext context;
        private final TextHeaders headers;
        private final Observation observation;
        private final Observation.Scope scope;

        private Send(ExcerptSenderContext context, TextHeaders headers, Observation observation,
                Observation.Scope scope) {
            this.context = context;
            this.headers = headers;
            this.observation = observation;
            this.scope = scope;
        }

        long appended(long index) {
            context.setIndex(index);
            return index;
        }

        void failed(Throwable error) {
            observation.error(error);
        }

        /** Ends the observation and empties the headers, so the lease's next message carries none of this trace. */
        void stop() {
            try {
                scope.close();
                observation.stop();
            } finally {
                headers.clear();
            }
        }
    }
}
