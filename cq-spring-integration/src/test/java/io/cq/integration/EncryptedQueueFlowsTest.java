package io.cq.integration;

import io.cq.core.MappedQueue;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.dsl.Pollers;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The adapters on a queue encrypted at rest (with checksums and LZ4) with keys from a PKCS12 key store. */
class EncryptedQueueFlowsTest {
    private static final String PASSWORD = "s3cret-store-password";

    @TempDir
    Path dir;

    @Test
    void shouldCarryMessagesAndHeadersFromTheOutboundToTheInboundAdapterWithNoPlaintextOnDisk() {
        EncryptionKeys keys = KeyStores.write(dir.resolve("keys.p12"), PASSWORD, "trades-2026");
        Path queueDirectory = dir.resolve("trades");
        List<Message<?>> received = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 64).withEncryption(keys))
                .build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("toQueue").handle(Cq.outboundAdapter(queue).headerPatterns("desk")).get(),
                     IntegrationFlow.from(Cq.inboundAdapter(queue).id("trades-in").payloadType(Trade.class))
                             .handle((MessageHandler) received::add).get())) {
            MessageChannel toQueue = context.getBean("toQueue", MessageChannel.class);
            MessagingTemplate template = new MessagingTemplate();
            for (int i = 0; i < 10; i++) {
                template.send(toQueue, MessageBuilder.withPayload(new Trade("SECRET-SYMBOL", i, 189.25 + i))
                        .setHeader("desk", "SECRET-DESK").build());
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 10);
            assertThat(received).extracting(message -> ((Trade) message.getPayload()).quantity())
                    .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(received).allSatisfy(message -> assertThat(message.getHeaders())
                    .containsEntry("desk", "SECRET-DESK").containsEntry(CqHeaders.QUEUE, "trades"));
        }
        assertThat(KeyStores.anyFileContains(queueDirectory, "SECRET")).isFalse();
        assertThat(KeyStores.anyFileContains(queueDirectory, "springMessage")).isFalse();
    }

    @Test
    void shouldPollAnEncryptedQueueReopenedWithItsKeysAlone() {
        EncryptionKeys keys = KeyStores.write(dir.resolve("keys.p12"), PASSWORD, "journal-2026");
        Path queueDirectory = dir.resolve("journal");
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withEncryption(keys)).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from("toQueue").handle(Cq.outboundAdapter(queue)).get())) {
            MessagingTemplate template = new MessagingTemplate();
            template.send(context.getBean("toQueue", MessageChannel.class),
                    MessageBuilder.withPayload("SECRET entry one").build());
            template.send(context.getBean("toQueue", MessageChannel.class),
                    MessageBuilder.withPayload("SECRET entry two").build());
        }
        List<Message<?>> received = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).encryptionKeys(keys).build();
             AbstractApplicationContext ignored = Flows.run(IntegrationFlow
                     .from(Cq.messageSource(queue).adapterId("journal-poller"),
                             endpoint -> endpoint.poller(Pollers.fixedDelay(Duration.ofMillis(10))))
                     .handle((MessageHandler) received::add).get())) {
            assertThat(queue.settings().codecs().encrypted()).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
            assertThat(received).extracting(message -> (Object) message.getPayload())
                    .containsExactly("SECRET entry one", "SECRET entry two");
        }
        assertThat(KeyStores.anyFileContains(queueDirectory, "SECRET")).isFalse();
    }

    @Test
    void shouldStopTheInboundAdapterFailedOnAnExcerptWhoseKeyItsQueueLacks() {
        EncryptionKeys oldKeys = KeyStores.write(dir.resolve("old.p12"), PASSWORD, "journal-2025");
        Path queueDirectory = dir.resolve("journal");
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withEncryption(oldKeys)).build()) {
            queue.acquireAppender().writeText("SECRET under the old key");
        }
        EncryptionKeys newKeys = KeyStores.write(dir.resolve("new.p12"), PASSWORD, "journal-2026");
        List<Message<?>> received = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).encryptionKeys(newKeys).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from(Cq.inboundAdapter(queue).id("journal-in"))
                             .handle((MessageHandler) received::add).get())) {
            QueueAdapterInfo info = new QueueAdapterRegistry(context).adapter("journal-in").orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> info.state() == QueueAdapterInfo.State.FAILED);
            assertThat(received).isEmpty();
            // not committed past it: started again with the key, it reads the excerpt (-1: from the start)
            assertThat(info.namedTailerIndex()).isIn(-1L, queue.firstIndex());
        }
    }
}
