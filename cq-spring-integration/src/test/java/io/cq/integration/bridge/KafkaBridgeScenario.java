package io.cq.integration.bridge;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.message.Messages;
import io.cq.integration.CqHeaders;
import io.cq.integration.Flows;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.context.Lifecycle;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.kafka.dsl.Kafka;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;

/**
 * The bridge of docs/spring-integration.md against any Kafka broker: trades appended to a cq queue go to a
 * topic and come back into a second queue; then the source is delivered again from five excerpts before its end (its
 * named tailer moved back). Both queues may have codecs (an encrypted source and copy, say). What came of it is an
 * {@link Outcome}, which {@link KafkaBridgeContract} holds to what the bridge promises.
 */
final class KafkaBridgeScenario {
    static final String TOPIC = "cq-trades";
    static final int TRADES = 20;
    /** How many excerpts at the source's end are delivered a second time. */
    static final int REDELIVERED = 5;

    private KafkaBridgeScenario() {
    }

    /**
     * What one run of the scenario saw.
     *
     * @param sourceIndexes   the indexes of the trades in the source queue
     * @param copied          the trades in the copy once every one had arrived, before the redelivery
     * @param arrived         the messages the consumer received before the redelivery
     * @param arrivedInAll    how many messages the consumer received, the redelivered ones too
     * @param copiedInAll     how many excerpts the copy holds once the redelivered ones were dropped
     * @param highestIndex    the highest source index the deduplicator saw of the source queue
     */
    record Outcome(List<Long> sourceIndexes, List<Trade> copied, List<Message<?>> arrived, int arrivedInAll,
                   long copiedInAll, long highestIndex) {
    }

    static Outcome run(String bootstrapServers, Path dir) {
        return run(bootstrapServers, dir, TOPIC, UnaryOperator.identity());
    }

    /**
     * @param topic  a topic of its own, read by a consumer group of its own
     * @param queues what to set on the builders of both queues beside their directories
     */
    static Outcome run(String bootstrapServers, Path dir, String topic, UnaryOperator<MappedQueueBuilder> queues) {
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.ACKS_CONFIG, "all")));
        DefaultKafkaConsumerFactory<String, byte[]> consumers = new DefaultKafkaConsumerFactory<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, topic + "-back",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        IndexDeduplicator deduplicator = new IndexDeduplicator();
        List<Message<?>> arrived = new CopyOnWriteArrayList<>();

        try (MappedQueue source = queues.apply(MappedQueue.builder(dir.resolve("trades"))).build();
             MappedQueue copy = queues.apply(MappedQueue.builder(dir.resolve("trades-copy"))).build()) {
            List<Long> sourceIndexes = new ArrayList<>();
            for (int i = 0; i < TRADES; i++) {
                sourceIndexes.add(Messages.writeObject(source.acquireAppender(), new Trade("AAPL", i, 189.0 + i)));
            }
            IntegrationFlow toKafka = IntegrationFlow
                    .from(Cq.inboundAdapter(source).id("trades-to-kafka").payloadType(byte[].class))
                    .handle(Kafka.outboundChannelAdapter(template).topic(topic)
                            .messageKey(message -> message.getHeaders().get(CqHeaders.QUEUE))
                            .sync(true))
                    .get();
            IntegrationFlow fromKafka = IntegrationFlow
                    .from(Kafka.messageDrivenChannelAdapter(consumers, topic))
                    .wireTap(flow -> flow.handle((MessageHandler) arrived::add))
                    .handle(Cq.outboundAdapter(copy), endpoint -> endpoint.advice(deduplicator))
                    .get();
            try (AbstractApplicationContext context = Flows.run(toKafka, fromKafka)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> copy.lastIndex() >= 0
                        && copy.countExcerpts(copy.firstIndex(), copy.lastIndex() + 1) == TRADES);
                List<Trade> copied = readTrades(copy);
                List<Message<?>> arrivedFirst = List.copyOf(arrived);

                Lifecycle sender = context.getBean("trades-to-kafka", Lifecycle.class);
                sender.stop();
                source.setNamedTailerIndex("trades-to-kafka", sourceIndexes.get(TRADES - REDELIVERED));
                sender.start();

                await().atMost(Duration.ofSeconds(30)).until(() -> deduplicator.duplicatesDropped() == REDELIVERED);
                return new Outcome(sourceIndexes, copied, arrivedFirst, arrived.size(),
                        copy.countExcerpts(copy.firstIndex(), copy.lastIndex() + 1),
                        deduplicator.highestIndex("trades"));
            }
        }
    }

    private static List<Trade> readTrades(MappedQueue queue) {
        List<Trade> trades = new ArrayList<>();
        ExcerptTailer tailer = queue.createTailer();
        for (Trade trade = Messages.readObject(tailer, Trade.class); trade != null;
                trade = Messages.readObject(tailer, Trade.class)) {
            trades.add(trade);
        }
        return trades;
    }
}
