package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.spring.actuate.QueueDescriptor;
import io.cq.spring.actuate.QueueDescriptor.CodecsDescriptor;
import io.cq.spring.actuate.QueuesEndpoint;
import io.cq.spring.boot.KeyStores;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.ConfigTreePropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cq.queues.<name>.checksums}, {@code .compression}, {@code .compression-threshold} and
 * {@code .encryption.*} choose a new queue's codecs and give an existing one its keys, from any of Spring's property
 * sources; the queues endpoint shows which codecs are on, and no key.
 */
class QueueCodecsPropertiesTest {
    private static final String PASSWORD = "s3cret-store-password";
    private static final String ALIAS = "audit-2026";

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class,
                        CqActuatorAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.audit.block-size=1MB",
                        "management.endpoints.web.exposure.include=queues");
    }

    @Test
    void shouldCreateAQueueWithTheChecksumsAndCompressionOfItsProperties() {
        runner().withPropertyValues("cq.queues.audit.checksums=true", "cq.queues.audit.compression=deflate",
                "cq.queues.audit.compression-threshold=1KB").run(context -> {
                    ExcerptCodecs codecs = context.getBean("audit", MappedQueue.class).settings().codecs();
                    assertThat(codecs).isEqualTo(ExcerptCodecs.none().withChecksums()
                            .withCompression(Compression.DEFLATE, 1024));
                    context.getBean(QueueTemplate.class).appendText("audit", "x".repeat(4096));
                });
        try (MappedQueue audit = MappedQueue.builder(dir.resolve("audit")).readOnly(true).build()) {
            assertThat(audit.createTailer().readText()).isEqualTo("x".repeat(4096));
        }
    }

    @Test
    void shouldOpenAnExistingQueueWithItsOwnCodecsWhenNoCodecPropertyIsSet() {
        MappedQueue.builder(dir.resolve("audit")).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 200)).build().close();
        runner().run(context -> assertThat(context.getBean("audit", MappedQueue.class).settings().codecs())
                .isEqualTo(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 200)));
        runner().withPropertyValues("cq.queues.audit.checksums=true", "cq.queues.audit.compression=lz4",
                "cq.queues.audit.compression-threshold=200").run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void shouldCreateAnEncryptedQueueFromAKeyStoreWhosePasswordIsAnEnvironmentVariable() {
        Path keyStore = dir.resolve("keys.p12");
        KeyStores.write(keyStore, PASSWORD, "audit-2025", ALIAS);
        runner().withPropertyValues("cq.queues.audit.encryption.key-store=" + keyStore,
                        "cq.queues.audit.encryption.key-alias=" + ALIAS)
                .withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("CQ_QUEUES_AUDIT_ENCRYPTION_KEYSTOREPASSWORD", PASSWORD))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ExcerptCodecs codecs = context.getBean("audit", MappedQueue.class).settings().codecs();
                    assertThat(codecs.encrypted()).isTrue();
                    assertThat(codecs.checksums()).isFalse();
                    assertThat(codecs.compression()).isEqualTo(Compression.NONE);
                    assertThat(codecs.keys().currentKeyId()).isEqualTo(EncryptionKeys.idOf(ALIAS));
                    context.getBean(QueueTemplate.class).appendText("audit", "SECRET-ACCOUNT-4242");
                });
        assertThat(KeyStores.noFileContains(dir.resolve("audit"), "SECRET-ACCOUNT")).isTrue();
    }

    @Test
    void shouldTakeThePasswordFromAConfigTree() throws IOException {
        Path keyStore = dir.resolve("keys.p12");
        KeyStores.write(keyStore, PASSWORD, ALIAS);
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        // As Kubernetes mounts a Secret: one file per key, its value ending with a new line.
        Files.writeString(secrets.resolve("cq.queues.audit.encryption.key-store-password"), PASSWORD + "\n");
        runner().withPropertyValues("cq.queues.audit.encryption.key-store=" + keyStore,
                        "cq.queues.audit.encryption.key-alias=" + ALIAS)
                .withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                        new ConfigTreePropertySource("secrets", secrets,
                                ConfigTreePropertySource.Option.AUTO_TRIM_TRAILING_NEW_LINE)))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("audit", MappedQueue.class).settings().codecs().encrypted()).isTrue();
                });
    }

    @Test
    void shouldShowWhichCodecsAreOnInTheQueuesEndpointWithNoKeyMaterial() {
        Path keyStore = dir.resolve("keys.p12");
        List<String> keyMaterial = KeyStores.write(keyStore, PASSWORD, "audit-2025", ALIAS);
        encryptedAuditQueue(keyStore)
                .run(context -> {
                    QueuesEndpoint endpoint = context.getBean(QueuesEndpoint.class);
                    QueueDescriptor audit = endpoint.queue(SecurityContext.NONE, "audit");
                    String currentKeyId = String.format("0x%08x", EncryptionKeys.idOf(ALIAS));
                    assertThat(audit.codecs()).isEqualTo(new CodecsDescriptor("AES-GCM encryption (current key id "
                            + currentKeyId + "), CRC-32C checksums (the GCM tag checks), LZ4 compression from 128 "
                            + "bytes", true, "LZ4", 128, true, true, currentKeyId));
                    assertThat(audit.settings()).containsEntry("codecs", audit.codecs().description());
                    assertThat(endpoint.queue(SecurityContext.NONE, "plain").codecs())
                            .isEqualTo(new CodecsDescriptor("none", false, "NONE", 0, false, false, null));

                    String json = JsonMapper.builder().build().writeValueAsString(endpoint.queues(
                            SecurityContext.NONE));
                    assertThat(json).contains("\"codecs\":{\"description\":\"AES-GCM encryption")
                            .doesNotContain(keyMaterial).doesNotContain(PASSWORD, keyStore.toString(), ALIAS);
                });
    }

    @Test
    void shouldShowThatAnEncryptedQueueOpenedWithoutKeysHasNone() {
        Path keyStore = dir.resolve("keys.p12");
        KeyStores.write(keyStore, PASSWORD, "audit-2025", ALIAS);
        encryptedAuditQueue(keyStore).run(context -> assertThat(context).hasNotFailed());

        runner().withPropertyValues("cq.queues.audit.read-only=true").run(context -> {
            CodecsDescriptor withoutKeys = context.getBean(QueuesEndpoint.class)
                    .queue(SecurityContext.NONE, "audit").codecs();
            assertThat(withoutKeys.encrypted()).isTrue();
            assertThat(withoutKeys.keysGiven()).isFalse();
            assertThat(withoutKeys.currentKeyId()).isNull();
            assertThat(withoutKeys.description()).startsWith("AES-GCM encryption (no keys given)");
        });
    }

    /** An encrypted, checksummed and compressed queue audit, a plain queue, values shown by the endpoints. */
    private ApplicationContextRunner encryptedAuditQueue(Path keyStore) {
        return runner().withPropertyValues("cq.queues.audit.checksums=true", "cq.queues.audit.compression=lz4",
                "cq.queues.audit.encryption.key-store=" + keyStore,
                "cq.queues.audit.encryption.key-store-password=" + PASSWORD,
                "cq.queues.audit.encryption.key-alias=" + ALIAS,
                "cq.queues.plain.block-size=1MB", "management.endpoint.queues.show-values=always");
    }

    @Test
    void shouldHideThePasswordInTheEnvEndpointEvenWhereItShowsValues() {
        endpointsShowingValues().run(context -> {
            assertThat(context).hasNotFailed();
            EnvironmentEndpoint env = context.getBean(EnvironmentEndpoint.class);
            assertThat(env.environmentEntry("cq.queues.audit.encryption.key-store-password").getProperty()
                    .getValue()).isEqualTo("******");
            assertThat(env.environmentEntry("cq.queues.audit.encryption.key-alias").getProperty().getValue())
                    .isEqualTo(ALIAS);
            JsonMapper json = JsonMapper.builder().build();
            assertThat(json.writeValueAsString(env.environment(null))).doesNotContain(PASSWORD);
        });
    }

    @Test
    void shouldHideThePasswordInTheConfigpropsEndpointEvenWhereItShowsValues() {
        endpointsShowingValues().run(context -> {
            assertThat(context).hasNotFailed();
            String configprops = JsonMapper.builder().build().writeValueAsString(context
                    .getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
            assertThat(configprops).contains(ALIAS).doesNotContain(PASSWORD);
        });
    }

    /** The env and configprops endpoints showing values, beside an encrypted queue audit. */
    private ApplicationContextRunner endpointsShowingValues() {
        Path keyStore = dir.resolve("keys.p12");
        KeyStores.write(keyStore, PASSWORD, ALIAS);
        return runner().withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
                        EnvironmentEndpointAutoConfiguration.class,
                        ConfigurationPropertiesReportEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=env,configprops,queues",
                        "management.endpoint.env.show-values=always",
                        "management.endpoint.configprops.show-values=always",
                        "cq.queues.audit.encryption.key-store=" + keyStore,
                        "cq.queues.audit.encryption.key-store-password=" + PASSWORD,
                        "cq.queues.audit.encryption.key-alias=" + ALIAS);
    }
}
