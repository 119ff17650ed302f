package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.spring.boot.KeyStores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key store, key or codec that does not fit the queue stops start-up with an analysis naming the queue, the
 * property and the fix, and never showing a key or a password.
 */
class QueueCodecsFailureAnalyzerTest {
    private static final String PASSWORD = "s3cret-store-password";
    private static final String ALIAS = "audit-2026";

    @TempDir
    Path dir;

    private Path keyStore;
    private List<String> keyMaterial;

    @BeforeEach
    void writeKeyStore() {
        keyStore = dir.resolve("keys.p12");
        keyMaterial = KeyStores.write(keyStore, PASSWORD, ALIAS, "audit-2025");
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.audit.block-size=1MB");
    }

    private FailureAnalysis startupFailure(String... properties) {
        return startupFailure(runner().withPropertyValues(properties));
    }

    private FailureAnalysis startupFailure(ApplicationContextRunner runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = StartupFailures.analyze(context.getStartupFailure());
        });
        String text = analysis[0].getDescription() + "\n" + analysis[0].getAction();
        List<String> secrets = new ArrayList<>(keyMaterial);
        secrets.add(PASSWORD);
        secrets.add("wrong-password");
        assertThat(text).doesNotContain(secrets);
        return analysis[0];
    }

    private String[] encryption(String password, String alias) {
        return new String[] {"cq.queues.audit.encryption.key-store=" + keyStore,
                "cq.queues.audit.encryption.key-store-password=" + password,
                "cq.queues.audit.encryption.key-alias=" + alias};
    }

    private void createEncryptedQueue() {
        EncryptionKeys keys = EncryptionKeys.fromKeyStore(keyStore, PASSWORD.toCharArray(), ALIAS);
        MappedQueue.builder(dir.resolve("audit")).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withChecksums().withEncryption(keys)).build().close();
    }

    @Test
    void shouldNameThePasswordPropertyWhenTheKeyStoreDoesNotOpenWithIt() {
        FailureAnalysis analysis = startupFailure(encryption("wrong-password", ALIAS));
        assertThat(analysis.getDescription()).startsWith("The cq queue 'audit' cannot be opened with the property "
                + "'cq.queues.audit.encryption.key-store-password': the key store " + keyStore + " does not open "
                + "with the configured password (");
        assertThat(analysis.getAction())
                .isEqualTo("Set cq.queues.audit.encryption.key-store-password to the key store's password.");
    }

    @Test
    void shouldNameTheAliasPropertyAndListTheStoresKeysWhenTheAliasIsMissing() {
        FailureAnalysis analysis = startupFailure(encryption(PASSWORD, "audit-2027"));
        assertThat(analysis.getDescription())
                .contains("'cq.queues.audit.encryption.key-alias'", "no AES secret key 'audit-2027'", "audit-2026",
                        "audit-2025");
        assertThat(analysis.getAction()).startsWith("Set cq.queues.audit.encryption.key-alias to the alias of one of "
                + "the store's AES keys");
    }

    @Test
    void shouldAskForTheKeyPropertiesWhenAnEncryptedQueueIsOpenedWithoutThem() {
        createEncryptedQueue();
        FailureAnalysis analysis = startupFailure();
        assertThat(analysis.getDescription()).isEqualTo("The cq queue 'audit' cannot be opened with the property "
                + "'cq.queues.audit.encryption.key-store': the queue in " + dir.resolve("audit") + " is encrypted, "
                + "and no key store is configured for it, so this application cannot write to it");
        assertThat(analysis.getAction()).contains("cq.queues.audit.encryption.key-store,",
                "cq.queues.audit.encryption.key-store-password", "cq.queues.audit.encryption.key-alias",
                "cq.queues.audit.read-only=true");
    }

    @Test
    void shouldOpenAnEncryptedQueueReadOnlyWithoutKeyProperties() {
        createEncryptedQueue();
        runner().withPropertyValues("cq.queues.audit.read-only=true").run(context -> {
            assertThat(context).hasNotFailed();
            ExcerptCodecs codecs = context.getBean("audit", MappedQueue.class).settings().codecs();
            assertThat(codecs.encrypted()).isTrue();
            assertThat(codecs.keys()).isNull();
        });
    }

    @Test
    void shouldAskForThePasswordOfAKeyStoreConfiguredWithoutIt() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.encryption.key-store=" + keyStore,
                "cq.queues.audit.encryption.key-alias=" + ALIAS);
        assertThat(analysis.getDescription()).contains("'cq.queues.audit.encryption.key-store-password'",
                "is configured without its password");
        assertThat(analysis.getAction()).contains("CQ_QUEUES_AUDIT_ENCRYPTION_KEYSTOREPASSWORD", "config tree");
    }

    @Test
    void shouldAskForTheAliasOfAKeyStoreConfiguredWithoutIt() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.encryption.key-store=" + keyStore,
                "cq.queues.audit.encryption.key-store-password=" + PASSWORD);
        assertThat(analysis.getDescription()).contains("'cq.queues.audit.encryption.key-alias'",
                "without the alias of the key that encrypts new excerpts");
    }

    @Test
    void shouldAskForTheKeyStoreWhenOnlyItsPasswordAndAliasAreSet() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.encryption.key-store-password=" + PASSWORD,
                "cq.queues.audit.encryption.key-alias=" + ALIAS);
        assertThat(analysis.getDescription()).contains("'cq.queues.audit.encryption.key-store'",
                "the key store is not set");
    }

    @Test
    void shouldNameTheKeyStorePropertyWhenTheFileIsMissingOrNoKeyStore() throws IOException {
        FailureAnalysis missing = startupFailure("cq.queues.audit.encryption.key-store=" + dir.resolve("none.p12"),
                "cq.queues.audit.encryption.key-store-password=" + PASSWORD,
                "cq.queues.audit.encryption.key-alias=" + ALIAS);
        assertThat(missing.getDescription()).contains("'cq.queues.audit.encryption.key-store'",
                "none.p12 is not a file this process can read");
        Files.writeString(keyStore, "not a key store");
        FailureAnalysis garbage = startupFailure(encryption(PASSWORD, ALIAS));
        assertThat(garbage.getDescription()).contains("'cq.queues.audit.encryption.key-store'",
                "cannot read key store " + keyStore);
        assertThat(garbage.getAction()).contains("PKCS12 or JCEKS");
    }

    @Test
    void shouldRefuseAKeyStoreForAQueueThatIsNotEncrypted() {
        MappedQueue.builder(dir.resolve("audit")).blockSize(1 << 20).build().close();
        FailureAnalysis analysis = startupFailure(encryption(PASSWORD, ALIAS));
        assertThat(analysis.getDescription()).contains("'cq.queues.audit.encryption.key-store'",
                "is not encrypted (its codecs: none)", "nothing written to it would be encrypted");
        assertThat(analysis.getAction()).startsWith("Remove cq.queues.audit.encryption.*");
    }

    @Test
    void shouldNameTheCodecsOfAnExistingQueueThatThePropertiesContradict() {
        MappedQueue.builder(dir.resolve("audit")).blockSize(1 << 20)
                .codecs(ExcerptCodecs.none().withChecksums()).build().close();
        FailureAnalysis analysis = startupFailure("cq.queues.audit.compression=lz4");
        assertThat(analysis.getDescription()).isEqualTo("The cq queue 'audit' cannot be opened with the property "
                + "'cq.queues.audit.checksums': the queue in " + dir.resolve("audit") + " was created with codecs: "
                + "CRC-32C checksums (kept in its files), and the properties ask for LZ4 compression from 128 bytes");
        assertThat(analysis.getAction()).startsWith("Set cq.queues.audit.checksums=true and "
                + "cq.queues.audit.compression=NONE to match them, or remove cq.queues.audit.checksums and "
                + "cq.queues.audit.compression to open it with its own codecs");
    }

    @Test
    void shouldNameACompressionThresholdOutOfRange() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.compression=deflate",
                "cq.queues.audit.compression-threshold=0B");
        assertThat(analysis.getDescription()).isEqualTo("The cq property 'cq.queues.audit.compression-threshold' has "
                + "the value '0B': a compression threshold must be from 1 byte to 16MB");
    }

    @Test
    void shouldSuggestTheClosestEncryptionPropertyForAMisspeltOne() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.encryption.key-alais=" + ALIAS);
        assertThat(analysis.getAction()).isEqualTo("Did you mean cq.queues.audit.encryption.key-alias? Rename it, or "
                + "remove it.");
    }

    @Test
    void shouldNotShowTheValueOfAMisspeltPassword() {
        FailureAnalysis analysis = startupFailure("cq.queues.audit.encryption.key-store-pasword=" + PASSWORD);
        assertThat(analysis.getDescription()).startsWith("The cq property "
                + "'cq.queues.audit.encryption.key-store-pasword' has the value '******'");
        assertThat(analysis.getAction()).isEqualTo("Did you mean cq.queues.audit.encryption.key-store-password? "
                + "Rename it, or remove it.");
    }

    @Test
    void shouldExplainAMissingKeyOfAQueueTheApplicationBuildsItself() {
        createEncryptedQueue();
        FailureAnalysis analysis = startupFailure(new ApplicationContextRunner()
                .withBean("ownQueue", MappedQueue.class, () -> MappedQueue.builder(dir.resolve("audit")).build()));
        assertThat(analysis.getDescription()).contains(dir.resolve("audit").toString(),
                "opened for writing without its keys");
        assertThat(analysis.getAction()).contains("MappedQueueBuilder.encryptionKeys");
    }
}
