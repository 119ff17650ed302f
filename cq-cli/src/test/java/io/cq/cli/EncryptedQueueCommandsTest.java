package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands on an encrypted queue, each run as {@code cq} runs (a JVM of its own), so that the key store's
 * password comes from the environment variable as it does for a user: {@code --key-store} decrypts for tail, dump,
 * verify and stats and encrypts for write; without it, or without the key an excerpt names, each refusal is one line
 * on stderr naming the queue and the key id.
 */
class EncryptedQueueCommandsTest {
    private static final String PASSWORD = "store secret 42";
    private static final String ALIAS = "orders-2026";
    private static final Map<String, String> ENVIRONMENT = Map.of(KeyStoreOptions.PASSWORD_VARIABLE, PASSWORD);

    @TempDir
    Path dir;

    private Path keyStore;
    private Path queue;
    private String keyId;

    record Run(int exit, List<String> err, String out) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    @BeforeEach
    void writeAnEncryptedQueue() throws Exception {
        keyStore = keyStore(dir.resolve("keys.p12"), PASSWORD, ALIAS, 1);
        queue = dir.resolve("q");
        EncryptionKeys keys = EncryptionKeys.fromKeyStore(keyStore, PASSWORD.toCharArray(), ALIAS);
        keyId = String.format("0x%08x", keys.currentKeyId());
        try (MappedQueue q = MappedQueue.builder(queue).codecs(ExcerptCodecs.none().withEncryption(keys)
                .withCompression(Compression.LZ4, 64)).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("SECRET-1 short");
            appender.writeText("SECRET-2 " + "{\"account\":\"ACC-4242\",\"amount\":1000000},".repeat(30));
        }
    }

    /** A PKCS12 key store holding one AES key under {@code alias}, made from {@code seed}. */
    static Path keyStore(Path file, String password, String alias, int seed) throws GeneralSecurityException,
            IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        store.setEntry(alias, new KeyStore.SecretKeyEntry(new SecretKeySpec(key, "AES")),
                new KeyStore.PasswordProtection(password.toCharArray()));
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file;
    }

    @Test
    void shouldTailDecryptedWithTheKeyStoreWhosePasswordComesFromTheEnvironment() {
        Run tail = cq(ENVIRONMENT, "tail", "--key-store", keyStore.toString(), queue.toString());

        assertThat(tail.exit()).as(tail.toString()).isZero();
        assertThat(tail.lines()).hasSize(2);
        assertThat(tail.lines().getFirst()).isEqualTo("SECRET-1 short");
        assertThat(tail.lines().getLast()).startsWith("SECRET-2 {\"account\":\"ACC-4242\"");
        assertThat(tail.err()).isEmpty();
    }

    @Test
    void shouldDumpDecryptedWithTheKeyStoreWhosePasswordComesFromTheEnvironment() {
        Run dump = cq(ENVIRONMENT, "dump", "--key-store", keyStore.toString(), queue.toString());

        assertThat(dump.exit()).as(dump.toString()).isZero();
        assertThat(dump.out()).contains("codecs: AES-GCM encryption (current key id " + keyId + "), LZ4 compression",
                "[key id " + keyId + ", tag ok, stored uncompressed] \"SECRET-1 short\"");
        assertThat(dump.out()).containsPattern("\\[key id " + keyId + ", tag ok, compressed LZ4 \\d+ -> \\d+ bytes] "
                + "\"SECRET-2");
        assertThat(dump.err()).isEmpty();
    }

    @Test
    void shouldRefuseToTailWithoutAKeyStoreInOneLineNamingTheQueueAndKeyId() {
        assertRefusedInOneLineWithoutAKeyStore("tail");
    }

    @Test
    void shouldRefuseToDumpWithoutAKeyStoreInOneLineNamingTheQueueAndKeyId() {
        assertRefusedInOneLineWithoutAKeyStore("dump");
    }

    private void assertRefusedInOneLineWithoutAKeyStore(String command) {
        Run run = cq(Map.of(), command, queue.toString());

        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(command).containsExactly("cq " + command + ": queue " + queue + " is encrypted "
                + "(excerpts with key id " + keyId + ") and no key store was given: give it with --key-store "
                + "<file>, its password in CQ_KEY_STORE_PASSWORD");
        assertThat(run.out()).as(command).doesNotContain("SECRET");
    }

    @Test
    void shouldRefuseInOneLineNamingTheQueueAndKeyIdWhenTheKeyStoreLacksTheExcerptsKey() throws Exception {
        Path other = keyStore(dir.resolve("other.p12"), PASSWORD, "another-key", 2);

        Run tail = cq(ENVIRONMENT, "tail", "--key-store", other.toString(), queue.toString());

        assertThat(tail.exit()).as(tail.toString()).isEqualTo(2);
        assertThat(tail.err()).singleElement().asString().startsWith("cq tail: queue " + queue + ": excerpt ")
                .contains("is encrypted with key id " + keyId + ", which this reader's keys lack (key store " + other);
    }

    @Test
    void shouldSayInOneLineThatTheKeyStorePasswordIsWrong() {
        Run tail = cq(Map.of(KeyStoreOptions.PASSWORD_VARIABLE, "not it"), "tail", "--key-store",
                keyStore.toString(), queue.toString());

        assertThat(tail.exit()).isEqualTo(2);
        assertThat(tail.err()).containsExactly("cq tail: cannot open key store " + keyStore + ": wrong password (from "
                + "CQ_KEY_STORE_PASSWORD)");
    }

    @Test
    void shouldNameThePasswordVariableWhenItIsUnsetWithNoTerminalToAskOn() {
        Run tail = cq(Map.of(), "tail", "--key-store", keyStore.toString(), queue.toString());

        assertThat(tail.exit()).isEqualTo(2);
        assertThat(tail.err()).containsExactly("cq tail: the password of key store " + keyStore + " is needed: set "
                + "CQ_KEY_STORE_PASSWORD (there is no terminal to ask on)");
    }

    @Test
    void shouldVerifyEveryTagOfAnIntactQueueWithTheKeyStore() {
        Run intact = cq(ENVIRONMENT, "verify", "--key-store", keyStore.toString(), queue.toString());

        assertThat(intact.exit()).as(intact.toString()).isZero();
        assertThat(intact.lines()).containsExactly(queue + ": 1 files, 2 excerpts checked, intact");
    }

    @Test
    void shouldFindAChangedCiphertextByteByItsTagWithTheKeyStore() throws IOException {
        Path file = CodecQueueCommandsTest.cycleFileOf(queue);
        long second = flipACiphertextByteOfTheSecondExcerpt(file);

        Run damaged = cq(ENVIRONMENT, "verify", "--key-store", keyStore.toString(), queue.toString());

        assertThat(damaged.exit()).as(damaged.toString()).isEqualTo(1);
        assertThat(damaged.lines().getFirst()).startsWith("DAMAGE " + file + " at " + second + ": excerpt ")
                .contains(": authentication tag does not match");
        assertThat(damaged.err()).isEmpty();
    }

    @Test
    void shouldSayWithoutAKeyStoreThatTheTagsWereNotChecked() {
        Run unkeyed = cq(Map.of(), "verify", queue.toString());

        assertThat(unkeyed.exit()).as(unkeyed.toString()).isZero();
        assertThat(unkeyed.lines()).containsExactly("NOTE " + queue + ": the queue is encrypted and no keys were "
                + "given: the authentication tags of its 2 encrypted excerpts were not checked, only the structure "
                + "(key ids " + keyId + "); give the keys to check them", queue + ": 1 files, 2 excerpts checked, "
                + "intact");
    }

    @Test
    void shouldNotSeeAChangedCiphertextByteWithoutAKeyStore() throws IOException {
        flipACiphertextByteOfTheSecondExcerpt(CodecQueueCommandsTest.cycleFileOf(queue));

        Run damagedUnkeyed = cq(Map.of(), "verify", queue.toString());

        assertThat(damagedUnkeyed.exit()).as("structure alone cannot see it").isZero();
    }

    /** Flips a byte of the second excerpt's ciphertext; returns the position of that excerpt's record. */
    private static long flipACiphertextByteOfTheSecondExcerpt(Path file) throws IOException {
        long second = recordPositions(file).get(1);
        // Past the record's header word, key id and nonce: a byte of the ciphertext.
        CodecQueueCommandsTest.flip(file, second + 4 + 4 + 12 + 20);
        return second;
    }

    @Test
    void shouldRefuseToWriteInOneLineWithoutAKeyStore() throws IOException {
        Path document = Files.writeString(dir.resolve("call.yaml"), "[\"SECRET-3\", 7]\n");

        Run refused = cq(Map.of(), "write", queue.toString(), "onTransfer", document.toString());

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).containsExactly("cq write: queue " + queue + " is encrypted and no key store was "
                + "given: give it with --key-store <file>, its password in CQ_KEY_STORE_PASSWORD");
    }

    @Test
    void shouldWriteEncryptedWithTheKeyStore() throws IOException {
        Path document = Files.writeString(dir.resolve("call.yaml"), "[\"SECRET-3\", 7]\n");

        Run written = cq(ENVIRONMENT, "write", "--key-store", keyStore.toString(), queue.toString(), "onTransfer",
                document.toString());
        Run tail = cq(ENVIRONMENT, "tail", "--key-store", keyStore.toString(), "--last", "1", queue.toString());

        assertThat(written.exit()).as(written.toString()).isZero();
        assertThat(written.lines()).singleElement().asString().startsWith("0x");
        assertThat(tail.lines()).containsExactly("onTransfer [\"SECRET-3\",7]");
        assertThat(new String(Files.readAllBytes(CodecQueueCommandsTest.cycleFileOf(queue)),
                StandardCharsets.ISO_8859_1)).doesNotContain("SECRET");
    }

    @Test
    void shouldNameTheEncryptionInStatsWithoutAKeyStoreButReadNoSizes() {
        Run unkeyed = cq(Map.of(), "stats", queue.toString());

        assertThat(unkeyed.exit()).as(unkeyed.toString()).isZero();
        assertThat(unkeyed.out()).contains("\ncodecs       AES-GCM encryption (no keys given), LZ4 compression from "
                + "64 bytes\n", "excerpt sizes  not read (the queue is encrypted and no --key-store was given)");
    }

    @Test
    void shouldReadSizesInStatsWithTheKeyStore() {
        Run keyed = cq(ENVIRONMENT, "stats", "--key-store", keyStore.toString(), queue.toString());

        assertThat(keyed.exit()).as(keyed.toString()).isZero();
        assertThat(keyed.out()).contains("\ncodecs       AES-GCM encryption (current key id " + keyId + ")",
                "excerpt sizes  2 of 2 excerpts read");
    }

    private static List<Long> recordPositions(Path file) throws IOException {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(Files.readAllBytes(file))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<Long> positions = new ArrayList<>();
        int p = (int) bytes.getLong(56);
        while (p + 4 <= bytes.capacity()) {
            int header = bytes.getInt(p);
            int length = header & 0x1FFFFFFF;
            if ((header & 0xE0000000) == 0x20000000) {
                positions.add((long) p);
            } else if ((header & 0xE0000000) != 0x60000000 || length == 0x1FFFFFFF) {
                break;
            }
            p = (p + 4 + length + 3) & ~3;
        }
        return positions;
    }

    /**
     * Runs {@code cq} in a JVM of its own with only {@code environment} of cq's variables set (the password's is
     * removed otherwise), stdin from /dev/null: no terminal to ask a password on.
     */
    private static Run cq(Map<String, String> environment, String... args) {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), CqCli.class.getName()));
        command.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(
                    new File("/dev/null")));
            builder.environment().remove(KeyStoreOptions.PASSWORD_VARIABLE);
            builder.environment().putAll(environment);
            Process process = builder.start();
            byte[] out = process.getInputStream().readAllBytes();
            byte[] err = process.getErrorStream().readAllBytes();
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
            return new Run(process.exitValue(), new String(err, StandardCharsets.UTF_8).lines().toList(),
                    new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
