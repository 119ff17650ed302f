package io.cq.integration.bridge;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

import java.nio.file.Path;

/** The same bridge against Apache Kafka in a container, where a Docker engine exists (skipped otherwise). */
@Testcontainers(disabledWithoutDocker = true)
class KafkaBridgeContainerTest {
    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.2.1");

    @TempDir
    Path dir;

    @Test
    void shouldBridgeQueueToKafkaAndBackInOrderAndDropRedeliveredDuplicatesByIndex() {
        KafkaBridgeScenario.run(KAFKA.getBootstrapServers(), dir);
    }
}
