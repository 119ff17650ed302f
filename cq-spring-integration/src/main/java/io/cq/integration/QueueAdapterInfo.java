package io.cq.integration;

import java.nio.file.Path;

/**
 * What monitoring may read about one cq adapter (inbound channel adapter, message source, outbound handler or
 * durable channel): the public view that Actuator endpoints and metrics list through {@link
 * QueueAdapterRegistry}. Implementations are thread-safe; each call reads current values, and {@link #lag()}
 * and {@link #namedTailerIndex()} read the queue's table store, so call them at monitoring rates, not per
 * message.
 */
public interface QueueAdapterInfo {
    /**
     * The adapter's id. For readers, the name of their named tailer, which the application chose; for writers, the
     * id given or else one derived from the flow, the queue and the role, unique in the context and the same on
     * every start ({@link AdapterIds}).
     */
    String adapterId();

    /** Which kind of adapter this is. */
    Kind kind();

    /** The queue's name: the name of its directory. */
    String queueName();

    /** The queue's directory. */
    Path queuePath();

    /**
     * The index of the next excerpt the adapter's named tailer will read, as persisted in the queue (-1: the
     * start of the queue, or an adapter that does not read, see {@link Kind#reads()}).
     */
    long namedTailerIndex();

    /** Excerpts after the named tailer's persisted position, not yet processed; 0 for adapters that write. */
    long lag();

    /** Whether the adapter is running, paused, stopped, or stopped by a failure. */
    State state();

    /** Messages handled successfully: delivered downstream (readers) or appended (writers). */
    long processedCount();

    /**
     * Messages that failed: flows that threw (the excerpt is delivered again), excerpts that could not be
     * converted (skipped, see docs/spring-integration.md) and appends that threw.
     */
    long failedCount();

    /** The kinds of cq adapters. */
    enum Kind {
        /** Message-driven: tails the queue on its own thread ({@code Cq.inboundAdapter}). */
        INBOUND_CHANNEL_ADAPTER(true),
        /** Polled: a poller reads one excerpt per {@code receive()} ({@code Cq.messageSource}). */
        MESSAGE_SOURCE(true),
        /**
         * Appends messages ({@code Cq.outboundAdapter}, {@code Cq.outboundGateway}); sends requests
         * ({@code Cq.requestReplyGateway}).
         */
        OUTBOUND_HANDLER(false),
        /** A pollable channel whose messages live in a queue ({@code Cq.durableChannel}). */
        DURABLE_CHANNEL(true),
        /** Message-driven: serves the requests of a queue and appends the replies ({@code Cq.inboundGateway}). */
        INBOUND_GATEWAY(true);

        private final boolean reads;

        Kind(boolean reads) {
            this.reads = reads;
        }

        /** Whether adapters of this kind read with a named tailer. */
        public boolean reads() {
            return reads;
        }
    }

    /** The life-cycle state of an adapter. */
    enum State {
        /** Started and working (or ready to). */
        RUNNING,
        /** Started, but paused: it reads nothing until resumed. */
        PAUSED,
        /** Not started, or stopped. */
        STOPPED,
        /**
         * Its reading thread ended on an unexpected failure (an {@code Error} from the flow or from converting an
         * excerpt, the queue closed under it): it reads nothing until started again, from the excerpt it failed
         * on, which was not committed. Health is DOWN meanwhile.
         */
        FAILED
    }
}
