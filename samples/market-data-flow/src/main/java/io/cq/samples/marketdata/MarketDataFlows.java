package io.cq.samples.marketdata;

import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.StartPosition;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.CqHeaders;
import io.cq.integration.bridge.IndexDeduplicator;
import io.cq.integration.dsl.Cq;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.Pollers;
import org.springframework.integration.kafka.dsl.Kafka;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import java.time.Duration;
import java.util.Map;

/**
 * The flows: feed -> cq queue {@code quotes}; {@code quotes} -> a local consumer (microseconds, same machine);
 * {@code quotes} -> Kafka (the bridge); Kafka -> a remote consumer that deduplicates by cq index and keeps its
 * own copy in the queue {@code quotes-remote}, as a service on another machine would.
 */
@Configuration(proxyBeanMethods = false)
class MarketDataFlows {
    private static final int POLLS_PER_SECOND = 100;
    /** The first quotes run through cold code (class loading, JIT): not what the latency summary is about. */
    static final int WARM_UP_QUOTES = 500;

    @Bean(destroyMethod = "close")
    MappedQueue quotes(MarketDataProperties properties) {
        return MappedQueue.builder(properties.directory().resolve("quotes")).rollCycle(RollCycle.HOURLY).build();
    }

    @Bean(destroyMethod = "close")
    MappedQueue remoteCopy(MarketDataProperties properties) {
        return MappedQueue.builder(properties.directory().resolve("quotes-remote")).rollCycle(RollCycle.HOURLY).build();
    }

    @Bean
    QuoteFeed feed() {
        return new QuoteFeed();
    }

    @Bean
    LatencyRecorder localLatency() {
        return new LatencyRecorder();
    }

    @Bean
    IndexDeduplicator remoteDeduplicator() {
        return new IndexDeduplicator();
    }

    @Bean
    KafkaConnection kafka(@Value("${spring.kafka.bootstrap-servers:}") String bootstrapServers,
                          MarketDataProperties properties) {
        return KafkaConnection.to(bootstrapServers, properties.topic());
    }

    /** Beans, so that the context closes the producer before the broker it depends on. */
    @Bean
    DefaultKafkaProducerFactory<String, byte[]> producers(KafkaConnection kafka) {
        return new DefaultKafkaProducerFactory<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.ACKS_CONFIG, "all",
                // each send is synchronous (see quotesToKafka): waiting 5 ms (Kafka 4's default) for a batch would only
                // add latency
                ProducerConfig.LINGER_MS_CONFIG, 0));
    }

    @Bean
    DefaultKafkaConsumerFactory<String, byte[]> consumers(KafkaConnection kafka) {
        return new DefaultKafkaConsumerFactory<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "market-data-remote",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
    }

    /** Market data in: the feed's quotes, {@code rate} per second, appended to the queue. */
    @Bean
    IntegrationFlow marketDataIn(QuoteFeed feed, MappedQueue quotes, MarketDataProperties properties) {
        return IntegrationFlow
                .fromSupplier(feed::next, endpoint -> endpoint.id("quote-feed").poller(Pollers
                        .fixedRate(Duration.ofMillis(1000 / POLLS_PER_SECOND))
                        .maxMessagesPerPoll(Math.max(1, properties.rate() / POLLS_PER_SECOND))))
                .handle(Cq.outboundAdapter(quotes).adapterId("quotes-writer"))
                .get();
    }

    /** A local consumer: reads the queue in the same process (another process would do the same). */
    @Bean
    IntegrationFlow localConsumer(MappedQueue quotes, LatencyRecorder localLatency, MarketDataProperties properties) {
        return IntegrationFlow
                .from(Cq.inboundAdapter(quotes).id("local-spread").payloadType(Quote.class)
                        .startPosition(StartPosition.end())
                        .idleStrategy(properties.busySpin() ? IdleStrategy::busySpin : IdleStrategy::backoff))
                .handle(Quote.class, (quote, headers) -> {
                    if (quote.sequence() > WARM_UP_QUOTES) {
                        localLatency.record(System.nanoTime() - quote.publishedNanos());
                    }
                    return null;
                })
                .get();
    }

    /**
     * The bridge out: every excerpt, as its bytes, to one Kafka partition (key: the queue's name), in order, with
     * the cq headers. {@code sync(true)}: the tailer commits only after Kafka acknowledged, so a crash resends
     * rather than loses.
     */
    @Bean
    IntegrationFlow quotesToKafka(MappedQueue quotes, DefaultKafkaProducerFactory<String, byte[]> producers,
                                  MarketDataProperties properties) {
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(producers);
        return IntegrationFlow
                .from(Cq.inboundAdapter(quotes).id("quotes-to-kafka").payloadType(byte[].class))
                .handle(Kafka.outboundChannelAdapter(template).topic(properties.topic())
                        .messageKey(message -> message.getHeaders().get(CqHeaders.QUEUE))
                        .sync(true))
                .get();
    }

    /** A remote consumer: from Kafka, duplicates dropped by cq index, into its own queue. */
    @Bean
    IntegrationFlow remoteConsumer(DefaultKafkaConsumerFactory<String, byte[]> consumers,
                                   IndexDeduplicator remoteDeduplicator, MappedQueue remoteCopy,
                                   MarketDataProperties properties) {
        return IntegrationFlow
                .from(Kafka.messageDrivenChannelAdapter(consumers, properties.topic()))
                .handle(Cq.outboundAdapter(remoteCopy).adapterId("remote-writer"),
                        endpoint -> endpoint.advice(remoteDeduplicator))
                .get();
    }
}
