package io.cq.spring.boot.codecs;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MissingKeyException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.spring.boot.KeyStores;
import io.cq.spring.boot.codecs.VaultApplication.AuditEvents;
import io.cq.spring.boot.codecs.VaultApplication.AuditLog;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.QueueListenerContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A queue with checksums, LZ4 and encryption chosen in application properties, written through a
 * {@code @QueueWriter} bean and read by a {@code @QueueListener}, as a whole application started as {@code main}
 * would start it.
 */
class EncryptedQueueThroughTheStarterTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String ALIAS = "audit-2026";
    private static final String LONG_ENTRY = "{\"event\":\"transfer\",\"from\":\"ACCOUNT-77\",\"to\":\"ACCOUNT-88\","
            + "\"amount\":\"1000000.00\",\"currency\":\"EUR\",\"note\":\"quarterly settlement, quarterly "
            + "settlement, quarterly settlement\"}";

    @TempDir
    Path dir;

    private ConfigurableApplicationContext start(Path keyStore, String... codecProperties) {
        return startWithAlias(keyStore, ALIAS, codecProperties);
    }

    private ConfigurableApplicationContext startWithAlias(Path keyStore, String alias, String... codecProperties) {
        List<String> properties = new ArrayList<>(List.of("cq.base-path=" + dir,
                "cq.queues.audit.block-size=1MB", "cq.queues.journal.block-size=1MB",
                "cq.queues.audit.encryption.key-store=" + keyStore,
                "cq.queues.audit.encryption.key-store-password=" + PASSWORD,
                "cq.queues.audit.encryption.key-alias=" + alias));
        properties.addAll(List.of(codecProperties));
        return new SpringApplicationBuilder(VaultApplication.class).web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new)).run();
    }

    @Test
    void shouldDeliverWhatAWriterBeanAppendsToAListenerAndKeepNoPlaintextOnDisk() {
        Path keyStore = dir.resolve("audit.p12");
        KeyStores.write(keyStore, PASSWORD, ALIAS);
        try (ConfigurableApplicationContext context = start(keyStore, "cq.queues.audit.checksums=true",
                "cq.queues.audit.compression=lz4", "cq.queues.audit.compression-threshold=64B")) {
            MappedQueue audit = context.getBean("audit", MappedQueue.class);
            ExcerptCodecs codecs = audit.settings().codecs();
            assertThat(codecs.checksums()).isTrue();
            assertThat(codecs.compression()).isEqualTo(Compression.LZ4);
            assertThat(codecs.compressionThreshold()).isEqualTo(64);
            assertThat(codecs.encrypted()).isTrue();

            AuditEvents events = context.getBean(AuditEvents.class);
            events.onEntry("SECRET-ACCOUNT-4242", "opened");
            events.onEntry("SECRET-ACCOUNT-4242", LONG_ENTRY);
            QueueTemplate template = context.getBean(QueueTemplate.class);
            template.methodWriter("audit", AuditEvents.class).onEntry("SECRET-ACCOUNT-4343", "closed");
            // A plain queue beside it, to show that the search below finds plaintext where there is some.
            template.appendText("journal", "SECRET-ACCOUNT-4242 opened");

            AuditLog log = context.getBean(AuditLog.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> log.entries.size() == 3);
            assertThat(log.entries).containsExactly("SECRET-ACCOUNT-4242: opened",
                    "SECRET-ACCOUNT-4242: " + LONG_ENTRY, "SECRET-ACCOUNT-4343: closed");
        }
        assertThat(KeyStores.noFileContains(dir.resolve("journal"), "SECRET-ACCOUNT")).isFalse();
        Path queueDirectory = dir.resolve("audit");
        assertThat(KeyStores.noFileContains(queueDirectory, "SECRET-ACCOUNT")).isTrue();
        assertThat(KeyStores.noFileContains(queueDirectory, "onEntry")).isTrue();
        assertThat(KeyStores.noFileContains(queueDirectory, "quarterly")).isTrue();
        try (MappedQueue withoutKeys = MappedQueue.builder(queueDirectory).readOnly(true).build();
             ExcerptTailer tailer = withoutKeys.createTailer()) {
            assertThatThrownBy(tailer::readingDocument).isInstanceOf(MissingKeyException.class)
                    .hasMessageContaining(String.format("0x%08x", EncryptionKeys.idOf(ALIAS)));
        }
    }

    @Test
    void shouldReopenAnEncryptedQueueWithItsOwnCodecsGivenOnlyTheKeyStore() {
        Path keyStore = dir.resolve("audit.p12");
        KeyStores.write(keyStore, PASSWORD, ALIAS);
        try (ConfigurableApplicationContext first = start(keyStore, "cq.queues.audit.checksums=true",
                "cq.queues.audit.compression=deflate")) {
            first.getBean(AuditEvents.class).onEntry("SECRET-ACCOUNT-1", "before the restart");
            AuditLog log = first.getBean(AuditLog.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> log.entries.size() == 1);
        }
        try (ConfigurableApplicationContext second = start(keyStore)) {
            ExcerptCodecs codecs = second.getBean("audit", MappedQueue.class).settings().codecs();
            assertThat(codecs.checksums()).isTrue();
            assertThat(codecs.compression()).isEqualTo(Compression.DEFLATE);
            assertThat(codecs.keys()).isNotNull();
            second.getBean(AuditEvents.class).onEntry("SECRET-ACCOUNT-2", "after the restart");
            AuditLog log = second.getBean(AuditLog.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> log.entries.size() == 1);
            assertThat(log.entries).containsExactly("SECRET-ACCOUNT-2: after the restart");
        }
        assertThat(KeyStores.noFileContains(dir.resolve("audit"), "SECRET-ACCOUNT")).isTrue();
    }

    @Test
    void shouldFailTheListenerOnAnExcerptWhoseKeyTheKeyStoreLacks() {
        Path oldStore = dir.resolve("old.p12");
        KeyStores.write(oldStore, PASSWORD, ALIAS);
        try (ConfigurableApplicationContext first = start(oldStore, "cq.listener.auto-startup=false")) {
            first.getBean(AuditEvents.class).onEntry("SECRET-ACCOUNT-1", "under the old key");
        }
        // A store that has lost the old key: the queue opens (its new excerpts need only the current key), and the
        // listener stops FAILED on the excerpt it cannot decrypt instead of skipping it.
        Path newStore = dir.resolve("new.p12");
        KeyStores.write(newStore, PASSWORD, "audit-2027");
        try (ConfigurableApplicationContext second = startWithAlias(newStore, "audit-2027")) {
            QueueListenerContainer container = second.getBean(ListenerContainerRegistry.class).container("audit-log");
            await().atMost(Duration.ofSeconds(10)).until(() -> container.state() == ListenerState.FAILED);
            assertThat(second.getBean(AuditLog.class).entries).isEmpty();
        }
    }
}
