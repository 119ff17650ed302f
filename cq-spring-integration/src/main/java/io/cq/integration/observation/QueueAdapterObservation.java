package io.cq.integration.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of cq's Spring Integration adapters: {@link #SEND} around each append of the outbound adapter
 * or gateway, whose tracing handler writes the trace context into the excerpt, and {@link #RECEIVE} around each
 * excerpt the inbound channel adapter sends to its flow, whose tracing handler continues the trace read from it.
 */
public enum QueueAdapterObservation implements ObservationDocumentation {
    /** {@code cq.adapter.send}: one append; a producer span with Micrometer Tracing. */
    SEND {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultAdapterSendObservationConvention.class;
        }
    },

    /** {@code cq.adapter.receive}: one excerpt through the flow; a consumer span with Micrometer Tracing. */
    RECEIVE {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultAdapterReceiveObservationConvention.class;
        }
    };

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
        return LowCardinalityKeys.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
        return HighCardinalityKeys.values();
    }

    /** Tags of the timers and spans. */
    public enum LowCardinalityKeys implements KeyName {
        /** The queue directory's name. */
        QUEUE {
            @Override
            public String asString() {
                return "queue";
            }
        },
        /** The adapter's id. */
        ADAPTER {
            @Override
            public String asString() {
                return "adapter";
            }
        }
    }

    /** Tags of the spans only. */
    public enum HighCardinalityKeys implements KeyName {
        /** The excerpt's index, in hex ({@code 0x...}); on a send, once the excerpt is appended. */
        INDEX {
            @Override
            public String asString() {
                return "cq.index";
            }
        }
    }
}
