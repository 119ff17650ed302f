package io.cq.core.codec;

import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.MissingKeyException;
import io.cq.core.QueueVerification;
import io.cq.core.QueueVerification.Finding;
import io.cq.core.QueueVerification.Severity;
import io.cq.core.support.QueueFileBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link MappedQueue#verify()} and {@link MappedQueue#dump()} on queues with excerpt codecs: every excerpt's checksum,
 * tag (given the keys) and compressed frame are checked and damage named by file, position and index; the codec
 * fields of the table store and cycle file headers are accepted where the reserved-byte checks used to find them,
 * while a stray byte beside them is still damage.
 */
class VerifyCodecQueuesTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T10:00:00Z"), ZoneOffset.UTC);
    private static final EncryptionKeys KEYS = EncryptionKeys.of(7, Map.of(7, ExcerptCodecsTest.key(7)));

    @TempDir
    Path dir;

    private Path write(ExcerptCodecs codecs, String... texts) {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).clock(CLOCK).codecs(codecs).build();
             ExcerptAppender appender = q.createAppender()) {
            for (String text : texts) {
                appender.writeText(text);
            }
        }
        return queue;
    }

    private static QueueVerification verify(Path queue, EncryptionKeys keys) {
        MappedQueueBuilder builder = MappedQueue.builder(queue).clock(CLOCK).readOnly(true);
        try (MappedQueue q = (keys == null ? builder : builder.encryptionKeys(keys)).build()) {
            return q.verify();
        }
    }

    private static List<Finding> damage(QueueVerification verification) {
        return verification.findings().stream().filter(f -> f.severity() == Severity.DAMAGE).toList();
    }

    private static String[] texts() {
        return new String[] {"first excerpt, left alone", "second: MARKER " + ExcerptCodecsTest.jsonLike(1, 600),
            "third excerpt, left alone"};
    }

    @Test
    void verifyPassesIntactQueuesOfEveryCodecCombinationWithoutAFinding() {
        ExcerptCodecs[] all = {ExcerptCodecs.none().withChecksums(),
            ExcerptCodecs.none().withCompression(Compression.LZ4, 64),
            ExcerptCodecs.none().withChecksums().withCompression(Compression.DEFLATE, 64),
            ExcerptCodecs.none().withEncryption(KEYS),
            ExcerptCodecs.none().withEncryption(KEYS).withChecksums().withCompression(Compression.LZ4, 64)};
        for (ExcerptCodecs codecs : all) {
            Path queue = write(codecs, texts());

            QueueVerification verification = verify(queue, codecs.encrypted() ? KEYS : null);

            assertThat(verification.findings()).as(codecs.describe()).isEmpty();
            assertThat(verification.excerptsChecked()).isEqualTo(3);
            deleteQueue(queue);
        }
    }

    @Test
    void verifyFindsAFlippedPayloadByteInAChecksummedQueueNamingFilePositionAndIndex() throws IOException {
        Path queue = write(ExcerptCodecs.none().withChecksums(), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        long at = find(file, "MARKER");
        flip(file, at);
        long record = recordPositions(file).get(1);
        long index;
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            index = q.firstIndex() + 1;
        }

        QueueVerification verification = verify(queue, null);

        assertThat(verification.isIntact()).isFalse();
        assertThat(damage(verification)).singleElement().satisfies(finding -> {
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(record);
            assertThat(finding.description()).startsWith("excerpt " + index + ": checksum mismatch");
        });
    }

    @Test
    void verifyFindsAFlippedCiphertextByteInAnEncryptedQueueGivenTheKeys() throws IOException {
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        long record = recordPositions(file).get(1);
        // Past the header word, key id and nonce: a byte of the ciphertext.
        flip(file, record + 4 + 4 + 12 + 30);

        QueueVerification verification = verify(queue, KEYS);

        assertThat(damage(verification)).singleElement().satisfies(finding -> {
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(record);
            assertThat(finding.description()).contains("authentication tag does not match");
        });
    }

    @Test
    void verifyWithoutKeysSaysInOneNoteThatTagsWereNotCheckedAndStillChecksTheStructure() throws IOException {
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        flip(file, recordPositions(file).get(1) + 4 + 4 + 12 + 30);

        QueueVerification unkeyed = verify(queue, null);

        assertThat(unkeyed.isIntact()).as("a changed ciphertext byte cannot be seen without the key").isTrue();
        assertThat(unkeyed.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.NOTE);
            assertThat(finding.description()).contains("no keys were given", "tags of its 3 encrypted excerpts "
                    + "were not checked", "0x00000007");
        });
        // The structure still is: a byte after the last record, further on than an unpublished excerpt would start.
        long end = QueueFileBytes.readLong(file, 64);
        write(file, end + 8_192, (byte) 1);
        assertThat(damage(verify(queue, null))).singleElement().satisfies(finding ->
                assertThat(finding.description()).contains("after the last record"));
    }

    @Test
    void verifyNotesTheKeyIdsTheKeysGivenLack() {
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS), texts());

        QueueVerification verification = verify(queue, EncryptionKeys.of(9, Map.of(9, ExcerptCodecsTest.key(9))));

        assertThat(verification.isIntact()).isTrue();
        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.NOTE);
            assertThat(finding.description()).startsWith("3 excerpts, the first here, are encrypted with key id "
                    + "0x00000007, which the keys given lack");
        });
    }

    @Test
    void verifyAcceptsTheCodecFieldsOfTheHeadersButNotAStrayByteBesideThem() throws IOException {
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS).withChecksums()
                .withCompression(Compression.LZ4, 64), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        Path tableStore = queue.resolve("metadata.cq4t");
        assertThat(QueueFileBytes.readLong(file, 80)).as("flags and compression").isNotZero();
        assertThat(QueueFileBytes.readLong(file, 96) | QueueFileBytes.readLong(file, 104)).as("key salt").isNotZero();
        assertThat(QueueFileBytes.readLong(tableStore, 72)).as("flags and compression").isNotZero();
        assertThat(QueueFileBytes.readLong(tableStore, 144)).as("nonce serial").isNotZero();
        assertThat(verify(queue, KEYS).findings()).isEmpty();

        write(file, 92, (byte) 1);
        write(file, 116, (byte) 1);
        write(tableStore, 84, (byte) 1);
        write(tableStore, 160, (byte) 1);

        assertThat(damage(verify(queue, KEYS))).extracting(Finding::file, Finding::position).containsExactly(
                org.assertj.core.groups.Tuple.tuple(file, 92L), org.assertj.core.groups.Tuple.tuple(file, 116L),
                org.assertj.core.groups.Tuple.tuple(tableStore, 84L),
                org.assertj.core.groups.Tuple.tuple(tableStore, 160L));
    }

    @Test
    void verifyFindsAStrayByteWhereAnUnencryptedFileKeepsNoSalt() throws IOException {
        Path queue = write(ExcerptCodecs.none().withChecksums(), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        write(file, 100, (byte) 1);

        assertThat(damage(verify(queue, null))).singleElement().satisfies(finding -> {
            assertThat(finding.position()).isEqualTo(100);
            assertThat(finding.description()).contains("reserved range of the cycle file's header (96 to 120)");
        });
    }

    @Test
    void verifyReportsACycleFileFramedOtherwiseThanItsQueue() throws IOException {
        Path plain = write(ExcerptCodecs.none(), texts());
        Path plainFile = QueueFileBytes.cycleFile(plain);
        Path checked = dir.resolve("checked");
        try (MappedQueue q = MappedQueue.builder(checked).clock(CLOCK).codecs(ExcerptCodecs.none().withChecksums())
                .build(); ExcerptAppender appender = q.createAppender()) {
            appender.writeText("one");
        }
        Path checkedFile = QueueFileBytes.cycleFile(checked);
        Files.copy(plainFile, checkedFile, StandardCopyOption.REPLACE_EXISTING);

        assertThat(damage(verify(checked, null))).singleElement().satisfies(finding -> {
            assertThat(finding.file()).isEqualTo(checkedFile);
            assertThat(finding.description()).contains("frames its excerpts with no codecs, its queue's table "
                    + "store says with CRC-32C checksums");
        });
    }

    @Test
    void dumpShowsTheDecodedTextOfCompressedAndEncryptedQueuesWithTheirFrames() {
        String big = ExcerptCodecsTest.jsonLike(3, 1024);
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS).withCompression(Compression.LZ4, 64),
                "short", big);

        String dump;
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).encryptionKeys(KEYS).build()) {
            dump = q.dump();
        }

        assertThat(dump).contains("codecs: AES-GCM encryption (current key id 0x00000007), LZ4 compression from 64 "
                + "bytes\n");
        assertThat(dump).containsPattern("\\[key id 0x00000007, tag ok, stored uncompressed] \"short\"");
        assertThat(dump).containsPattern("\\[key id 0x00000007, tag ok, compressed LZ4 1024 -> \\d+ bytes] \"\\{");
        assertThat(dump).contains(big.substring(0, 200));
    }

    @Test
    void dumpWithoutTheKeyShowsEveryRecordThenNamesTheKeyId() {
        Path queue = write(ExcerptCodecs.none().withEncryption(KEYS), texts());
        StringBuilder out = new StringBuilder();

        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            assertThatThrownBy(() -> q.dump(out)).isInstanceOf(MissingKeyException.class)
                    .hasMessageContaining("key id 0x00000007");
        }

        assertThat(out.toString().lines().filter(line -> line.contains("[key id 0x00000007] not decrypted")))
                .hasSize(3);
    }

    @Test
    void dumpShowsADamagedChecksumAndGoesOn() throws IOException {
        Path queue = write(ExcerptCodecs.none().withChecksums(), texts());
        Path file = QueueFileBytes.cycleFile(queue);
        flip(file, find(file, "MARKER"));
        StringBuilder out = new StringBuilder();

        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            assertThatThrownBy(() -> q.dump(out)).isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining("checksum mismatch");
        }

        assertThat(out.toString()).contains("[checksum ok] \"first excerpt, left alone\"",
                "DAMAGED: excerpt ", "[checksum ok] \"third excerpt, left alone\"");
    }

    private static void deleteQueue(Path queue) {
        try (var files = Files.list(queue)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
            Files.delete(queue);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The positions of the data records of a cycle file, walked by their header words. */
    static List<Long> recordPositions(Path file) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<Long> positions = new java.util.ArrayList<>();
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

    static long find(Path file, String marker) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + m.length <= bytes.length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (bytes[i + j] != m[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError(marker + " not in " + file);
    }

    private static void flip(Path file, long at) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ 0x01)).rewind();
            channel.write(one, at);
        }
    }

    private static void write(Path file, long at, byte value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {value}), at);
        }
    }
}
