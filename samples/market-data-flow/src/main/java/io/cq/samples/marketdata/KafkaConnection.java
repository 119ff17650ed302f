package io.cq.samples.marketdata;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Where Kafka is: {@code spring.kafka.bootstrap-servers} when given, otherwise a single-node KRaft broker
 * started in this JVM (2.5 to 4 s), so that the sample runs with nothing installed. Destroyed after the Kafka
 * clients that depend on it.
 */
final class KafkaConnection implements DisposableBean {
    private final String bootstrapServers;
    private final EmbeddedKafkaKraftBroker broker;

    private KafkaConnection(String bootstrapServers, EmbeddedKafkaKraftBroker broker) {
        this.bootstrapServers = bootstrapServers;
        this.broker = broker;
    }

    static KafkaConnection to(String bootstrapServers, String topic) {
        if (bootstrapServers != null && !bootstrapServers.isBlank()) {
            return new KafkaConnection(bootstrapServers, null);
        }
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, topic);
        broker.afterPropertiesSet();
        return new KafkaConnection(broker.getBrokersAsString(), broker);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    boolean embedded() {
        return broker != null;
    }

    @Override
    public void destroy() {
        if (broker != null) {
            broker.destroy();
        }
    }
}
