package io.cq.integration.bridge;

import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.integration.KeyStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bridge against a real Kafka broker (KRaft) started in this JVM, once for the classes nested here: no Docker,
 * no network.
 */
class KafkaBridgeTest {
    private static final String ENCRYPTED_TOPIC = "cq-trades-encrypted";
    private static EmbeddedKafkaKraftBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, 1, KafkaBridgeScenario.TOPIC, ENCRYPTED_TOPIC);
        broker.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class BetweenPlainQueues extends KafkaBridgeContract {
        @Override
        KafkaBridgeScenario.Outcome runScenario() {
            return KafkaBridgeScenario.run(broker.getBrokersAsString(), dir);
        }
    }

    /** Between encrypted queues as between plain ones: the bridge reads and writes them like any others. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class BetweenEncryptedQueues extends KafkaBridgeContract {
        @Override
        KafkaBridgeScenario.Outcome runScenario() {
            EncryptionKeys keys = KeyStores.write(dir.resolve("keys.p12"), "s3cret-store-password", "trades-2026");
            ExcerptCodecs codecs = ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 32)
                    .withEncryption(keys);
            return KafkaBridgeScenario.run(broker.getBrokersAsString(), dir, ENCRYPTED_TOPIC,
                    builder -> builder.blockSize(1 << 20).codecs(codecs));
        }

        @Test
        void shouldLeaveNoTradeInPlainTextInEitherQueue() {
            assertThat(KeyStores.anyFileContains(dir.resolve("trades"), "AAPL")).isFalse();
            assertThat(KeyStores.anyFileContains(dir.resolve("trades-copy"), "AAPL")).isFalse();
        }
    }
}
