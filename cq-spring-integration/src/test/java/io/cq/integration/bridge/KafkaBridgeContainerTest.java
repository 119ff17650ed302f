package io.cq.integration.bridge;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/** The same bridge against Apache Kafka in a container, where a Docker engine exists (skipped otherwise). */
@Testcontainers(disabledWithoutDocker = true)
class KafkaBridgeContainerTest extends KafkaBridgeContract {
    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.2.1");

    @Override
    KafkaBridgeScenario.Outcome runScenario() {
        return KafkaBridgeScenario.run(KAFKA.getBootstrapServers(), dir);
    }
}
