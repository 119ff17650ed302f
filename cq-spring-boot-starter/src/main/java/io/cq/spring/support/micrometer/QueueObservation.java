package io.cq.spring.support.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of the starter: {@link #SEND} around each append of a {@code QueueTemplate} or
 * {@code @QueueWriter}, whose tracing handler writes the trace context into the excerpt, and {@link #LISTENER}
 * around each call of a {@code @QueueListener}, whose tracing handler continues the trace read from it.
 */
public enum QueueObservation implements ObservationDocumentation {
    /** {@code cq.send}: one append; a producer span with Micrometer Tracing. */
    SEND {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultQueueSendObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {LowCardinalityKeys.QUEUE};
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeys.values();
        }
    },

    /** {@code cq.listener}: one call of a listener method; a consumer span with Micrometer Tracing. */
    LISTENER {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultQueueListenerObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeys.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeys.values();
        }
    };

    /** Tags of the timers and spans. */
    public enum LowCardinalityKeys implements KeyName {
        /** The queue's name (its bean name). */
        QUEUE {
            @Override
            public String asString() {
                return "queue";
            }
        },
        /** The listener's id. */
        LISTENER {
            @Override
            public String asString() {
                return "listener";
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
