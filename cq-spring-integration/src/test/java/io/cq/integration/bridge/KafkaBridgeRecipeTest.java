package io.cq.integration.bridge;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.integration.CqHeaders;
import io.cq.integration.Trade;
import io.cq.integration.dsl.Cq;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.kafka.dsl.Kafka;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.messaging.MessageChannel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka bridge of docs/spring-integration.md run as the guide shows it: {@link Recipe} holds the guide's code
 * as it is written there (a test below keeps the two in step), fed with envelopes, the excerpts an outbound
 * adapter writes when it keeps headers. The guide promises their payload on the other side.
 */
class KafkaBridgeRecipeTest {
    private static final Path GUIDE = Path.of("..", "docs", "spring-integration.md");
    private static final Path THIS_SOURCE =
            Path.of("src", "test", "java", "io", "cq", "integration", "bridge", "KafkaBridgeRecipeTest.java");
    private static final String GUIDE_CODE_BEGINS = "// The guide's code, as it is there:";
    private static final String GUIDE_CODE_ENDS = "// End of the guide's code.";

    private static final String TEXT = "AAPL 100 @ 189.25";
    /** Not UTF-8, not Base64 text: any conversion on the way would show. */
    private static final byte[] BYTES = {0, 1, 2, (byte) 0xC3, (byte) 0xFF};
    private static final Trade TRADE = new Trade("MSFT", 5, 420.5);

    private static EmbeddedKafkaKraftBroker broker;
    private static AnnotationConfigApplicationContext context;
    private static MappedQueue trades;
    private static MappedQueue tradesCopy;

    @TempDir
    static Path dir;

    /** One broker and one run of the recipe for every test: a text, a byte array and a trade, copied over Kafka. */
    @BeforeAll
    static void bridgeThreeEnvelopes() {
        broker = new EmbeddedKafkaKraftBroker(1, 1, "cq-trades");
        broker.afterPropertiesSet();
        context = new AnnotationConfigApplicationContext(Machines.class, Recipe.class);
        MessagingTemplate sender = new MessagingTemplate();
        MessageChannel tradesIn = context.getBean("tradesIn", MessageChannel.class);
        sender.send(tradesIn, MessageBuilder.withPayload(TEXT).setHeader("traceId", "t-1").build());
        sender.send(tradesIn, MessageBuilder.withPayload(BYTES).setHeader("traceId", "t-2").build());
        sender.send(tradesIn, MessageBuilder.withPayload(TRADE).setHeader("traceId", "t-3").build());
        trades = context.getBean("trades", MappedQueue.class);
        tradesCopy = context.getBean("tradesCopy", MappedQueue.class);

        await().atMost(Duration.ofSeconds(60)).until(() -> tradesCopy.lastIndex() >= 0
                && tradesCopy.countExcerpts(tradesCopy.firstIndex(), tradesCopy.lastIndex() + 1) == 3);
    }

    @AfterAll
    static void stopBroker() {
        if (context != null) {
            context.close();
        }
        broker.destroy();
    }

    @Test
    void shouldFeedTheBridgeWithEnvelopes() {
        assertThat(excerptsAsJson(trades)).as("the source holds envelopes").allSatisfy(json ->
                assertThat(json).startsWith("{\"method\":\"springMessage\""));
    }

    @Test
    void shouldDeliverTheTextPayloadOfAnEnvelope() {
        try (ExcerptTailer copy = copyAt(0)) {
            assertThat(copy.readText()).isEqualTo(TEXT);
        }
    }

    @Test
    void shouldDeliverTheBytesPayloadOfAnEnvelope() {
        try (ExcerptTailer copy = copyAt(1)) {
            assertThat(copy.readBytes()).containsExactly(BYTES);
        }
    }

    @Test
    void shouldCopyAnObjectEnvelopeWhole() {
        try (ExcerptTailer copy = copyAt(2); ReadContext excerpt = copy.readingDocument()) {
            assertThat(Messages.readObject(excerpt, Trade.class)).isEqualTo(TRADE);
            assertThat(Messages.toJson(excerpt)).isEqualTo(excerptsAsJson(trades).get(2));
        }
    }

    @Test
    void shouldCarryKeptHeadersAsKafkaHeaders() {
        assertThat(kafkaRecords()).as("kept headers travel as Kafka headers")
                .extracting(record -> new String(record.headers().lastHeader("traceId").value(), UTF_8))
                .containsExactly("t-1", "t-2", "t-3");
    }

    @Test
    void shouldShowInTheGuideTheCodeThisTestRuns() throws IOException {
        String guide = Files.readString(GUIDE);
        int section = guide.indexOf("## Beyond one machine: a Kafka bridge");
        // The block's info string may say how the docs' own check compiles it ("java members"): skip that line.
        int start = guide.indexOf('\n', guide.indexOf("```java", section)) + 1;
        String guideCode = guide.substring(start, guide.indexOf("```", start));
        String source = Files.readString(THIS_SOURCE);
        // lastIndexOf: the markers' first occurrences are the constants above
        String testedCode = source.substring(source.lastIndexOf(GUIDE_CODE_BEGINS) + GUIDE_CODE_BEGINS.length(),
                source.lastIndexOf(GUIDE_CODE_ENDS));

        assertThat(section).isNotNegative();
        assertThat(linesWithoutIndentation(testedCode)).containsExactlyElementsOf(linesWithoutIndentation(guideCode));
    }

    private static List<String> linesWithoutIndentation(String code) {
        // The guide's block carries the imports its compiled check needs; this file has them at its top.
        return code.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("import "))
                .toList();
    }

    /** A tailer of the copy that has skipped its first {@code excerpts} excerpts. */
    private static ExcerptTailer copyAt(int excerpts) {
        ExcerptTailer tailer = tradesCopy.createTailer();
        for (int i = 0; i < excerpts; i++) {
            try (ReadContext skipped = tailer.readingDocument()) {
                assertThat(skipped.isPresent()).isTrue();
            }
        }
        return tailer;
    }

    private static List<String> excerptsAsJson(MappedQueue queue) {
        List<String> json = new ArrayList<>();
        ExcerptTailer tailer = queue.createTailer();
        while (true) {
            try (ReadContext excerpt = tailer.readingDocument()) {
                if (!excerpt.isPresent()) {
                    return json;
                }
                json.add(Messages.toJson(excerpt));
            }
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> kafkaRecords() {
        Map<String, Object> settings = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.GROUP_ID_CONFIG, "observer",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("cq-trades"));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            KafkaTestUtils.getRecords(consumer, Duration.ofSeconds(30), 3).forEach(records::add);
            return records;
        }
    }

    /**
     * What the guide leaves to the application, with both machines in one context: a queue on each, Kafka's
     * producer and consumer factories, and a flow that writes envelopes into the source queue.
     */
    @Configuration(proxyBeanMethods = false)
    @EnableIntegration
    static class Machines {
        @Bean(destroyMethod = "close")
        MappedQueue trades() {
            return MappedQueue.builder(dir.resolve("trades")).build();
        }

        @Bean(destroyMethod = "close")
        MappedQueue tradesCopy() {
            return MappedQueue.builder(dir.resolve("trades-copy")).build();
        }

        @Bean
        IntegrationFlow envelopesIntoTrades(MappedQueue trades) {
            return IntegrationFlow.from("tradesIn").handle(Cq.outboundAdapter(trades).headerPatterns("trace*")).get();
        }

        @Bean
        KafkaTemplate<String, byte[]> kafkaTemplate() {
            return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 0)));
        }

        @Bean
        ConsumerFactory<String, byte[]> consumerFactory() {
            return new DefaultKafkaConsumerFactory<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                    ConsumerConfig.GROUP_ID_CONFIG, "cq-trades-copy",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Recipe {
        // The guide's code, as it is there:
        // machine A: queue -> topic. One Kafka record per excerpt, one partition per queue (ordering), cq headers.
        @Bean
        IntegrationFlow tradesToKafka(MappedQueue trades, KafkaTemplate<String, byte[]> kafkaTemplate) {
            return IntegrationFlow.from(Cq.inboundAdapter(trades).id("trades-to-kafka").payloadType(byte[].class))
                    .handle(Kafka.outboundChannelAdapter(kafkaTemplate).topic("cq-trades")
                            .messageKey(m -> m.getHeaders().get(CqHeaders.QUEUE))
                            .sync(true))
                    .get();
        }

        // machine B: topic -> queue, dropping redelivered duplicates by cq index.
        @Bean
        IntegrationFlow tradesFromKafka(ConsumerFactory<String, byte[]> consumerFactory, MappedQueue tradesCopy) {
            return IntegrationFlow.from(Kafka.messageDrivenChannelAdapter(consumerFactory, "cq-trades"))
                    .handle(Cq.outboundAdapter(tradesCopy), e -> e.advice(new IndexDeduplicator()))
                    .get();
        }
        // End of the guide's code.
    }
}
