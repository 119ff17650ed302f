package io.cq.integration.bridge;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import java.nio.file.Path;

/** The bridge against a real Kafka broker (KRaft) started in this JVM: no Docker, no network. */
class KafkaBridgeTest {
    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, 1, "cq-trades");
        broker.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void shouldBridgeQueueToKafkaAndBackInOrderAndDropRedeliveredDuplicatesByIndex() {
        KafkaBridgeScenario.run(broker.getBrokersAsString(), dir);
    }
}
