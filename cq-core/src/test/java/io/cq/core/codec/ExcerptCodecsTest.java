package io.cq.core.codec;

import io.cq.core.CodecsMismatchException;
import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.MissingKeyException;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import io.cq.core.support.QueueFileBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExcerptCodecsTest {
    @TempDir
    Path dir;

    static SecretKey key(int seed) {
        byte[] bytes = new byte[32];
        new Random(seed).nextBytes(bytes);
        return new SecretKeySpec(bytes, "AES");
    }

    static String jsonLike(int i, int size) {
        StringBuilder text = new StringBuilder();
        while (text.length() < size) {
            text.append("{\"order\":").append(i).append(",\"symbol\":\"EURUSD\",\"side\":\"BUY\",\"qty\":")
                    .append(1000 + text.length()).append(",\"account\":\"ACC-").append(i % 97).append("\"},");
        }
        return text.substring(0, size);
    }

    private List<String> readAll(MappedQueue queue) {
        List<String> read = new ArrayList<>();
        try (ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (ReadContext rc = tailer.readingDocument()) {
                    if (!rc.isPresent()) {
                        return read;
                    }
                    byte[] bytes = new byte[(int) rc.bytes().length()];
                    rc.bytes().readBytes(bytes);
                    read.add(new String(bytes, StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static List<String> texts(int count, int size) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            texts.add(jsonLike(i, size + i % 7));
        }
        return texts;
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void shouldReadBackWhatWasWrittenWithEveryCombinationOfCodecs(Compression compression) {
        EncryptionKeys keys = EncryptionKeys.of(key(1));
        ExcerptCodecs[] all = {
                ExcerptCodecs.none().withChecksums().withCompression(compression, 64),
                ExcerptCodecs.none().withCompression(compression, 64),
                ExcerptCodecs.none().withEncryption(keys).withCompression(compression, 64),
                ExcerptCodecs.none().withChecksums().withEncryption(keys).withCompression(compression, 64)};
        int n = 0;
        for (ExcerptCodecs codecs : all) {
            if (codecs.isPlain()) {
                continue;
            }
            Path queueDir = dir.resolve("q" + n++);
            List<String> written = new ArrayList<>();
            written.add("");
            written.add("x");
            written.addAll(texts(40, 10));
            written.addAll(texts(40, 1024));
            try (MappedQueue queue = MappedQueue.builder(queueDir).codecs(codecs).build();
                 ExcerptAppender appender = queue.createAppender()) {
                for (String text : written) {
                    appender.writeText(text);
                }
                assertThat(readAll(queue)).as(codecs.describe()).containsExactlyElementsOf(written);
            }
            // Another opening, told nothing but the keys, reads the same.
            MappedQueueBuilder opening = MappedQueue.builder(queueDir).readOnly(true);
            if (codecs.encrypted()) {
                opening.encryptionKeys(keys);
            }
            try (MappedQueue reader = opening.build()) {
                assertThat(reader.settings().codecs().sameFormatAs(codecs)).isTrue();
                assertThat(readAll(reader)).containsExactlyElementsOf(written);
            }
        }
    }

    @Test
    void shouldReportWhereAChecksumFindsAFlippedPayloadByte() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).codecs(ExcerptCodecs.none().withChecksums()).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("first excerpt, left alone");
            appender.writeText("second excerpt: MARKER to flip");
            appender.writeText("third excerpt, left alone");
        }
        Path file = QueueFileBytes.cycleFile(dir);
        long at = find(file, "MARKER");
        flip(file, at);
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            try (ReadContext rc = tailer.readingDocument()) {
                assertThat(rc.isPresent()).isTrue();
            }
            assertThatThrownBy(tailer::readingDocument)
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("excerpt " + (queue.firstIndex() + 1))
                    .hasMessageContaining("checksum mismatch");
        }
    }

    @Test
    void shouldCompressAJsonLikeKibibyteToAtMostHalfItsSize() throws IOException {
        for (Compression method : new Compression[]{Compression.LZ4, Compression.DEFLATE}) {
            Path queueDir = dir.resolve(method.name());
            long plainEnd;
            try (MappedQueue queue = MappedQueue.builder(queueDir).codecs(ExcerptCodecs.none()
                    .withCompression(method)).build(); ExcerptAppender appender = queue.createAppender()) {
                appender.writeText("creates the cycle file and its first index block");
                long before = writePosition(QueueFileBytes.cycleFile(queueDir));
                for (String text : texts(100, 1024)) {
                    appender.writeText(text);
                }
                plainEnd = writePosition(QueueFileBytes.cycleFile(queueDir)) - before;
            }
            assertThat(plainEnd).as(method + ": bytes for 100 excerpts of 1 KiB").isLessThan(100 * 1024 / 2);
        }
    }

    /** Writes one excerpt with an account number in it to a queue encrypted under key id 7. */
    private void writeASecretEncryptedUnderKey7() {
        EncryptionKeys keys = EncryptionKeys.of(7, Map.of(7, key(7)));
        try (MappedQueue queue = MappedQueue.builder(dir).codecs(ExcerptCodecs.none().withEncryption(keys)).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("SECRET-ACCOUNT-4242 moves 1,000,000");
        }
    }

    @Test
    void shouldKeepNoPlaintextOfAnEncryptedQueueOnDisk() throws IOException {
        writeASecretEncryptedUnderKey7();

        assertThat(find(QueueFileBytes.cycleFile(dir), "SECRET")).isNegative();
    }

    @Test
    void shouldRefuseAReaderWithoutTheKey() {
        writeASecretEncryptedUnderKey7();

        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(tailer::readingDocument)
                    .isInstanceOf(MissingKeyException.class)
                    .hasMessageContaining(dir.toString())
                    .hasMessageContaining("key id 0x00000007");
        }
    }

    @Test
    void shouldRefuseAReaderWithAnotherKeyUnderTheSameId() {
        writeASecretEncryptedUnderKey7();

        EncryptionKeys other = EncryptionKeys.of(7, Map.of(7, key(8)));
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).encryptionKeys(other).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(tailer::readingDocument)
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining("authentication tag does not match");
        }
    }

    @Test
    void shouldRefuseToOpenAnEncryptedQueueForWritingWithoutItsKeys() {
        writeASecretEncryptedUnderKey7();

        assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                .isInstanceOf(MissingKeyException.class)
                .hasMessageContaining("opened for writing without its keys");
    }

    /** Writes "under key 1" to a queue encrypted with key 1. */
    private void writeUnderKey1(SecretKey first) {
        try (MappedQueue queue = MappedQueue.builder(dir)
                .codecs(ExcerptCodecs.none().withEncryption(EncryptionKeys.of(1, Map.of(1, first)))).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("under key 1");
        }
    }

    /** Opens the queue for writing with key 2, key 1 kept for reading. */
    private MappedQueue openRotatedToKey2(SecretKey first, SecretKey second) {
        return MappedQueue.builder(dir).encryptionKeys(EncryptionKeys.of(2, Map.of(1, first, 2, second))).build();
    }

    @Test
    void shouldReadEveryExcerptAcrossAKeyRotation() {
        SecretKey first = key(1);
        SecretKey second = key(2);
        writeUnderKey1(first);

        try (MappedQueue queue = openRotatedToKey2(first, second); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("under key 2");
            assertThat(readAll(queue)).containsExactly("under key 1", "under key 2");
        }
    }

    @Test
    void shouldNeedTheOldKeyForExcerptsWrittenBeforeARotation() {
        SecretKey first = key(1);
        SecretKey second = key(2);
        writeUnderKey1(first);
        try (MappedQueue queue = openRotatedToKey2(first, second); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("under key 2");
        }

        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true)
                .encryptionKeys(EncryptionKeys.of(2, Map.of(2, second))).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(tailer::readingDocument)
                    .isInstanceOf(MissingKeyException.class)
                    .hasMessageContaining("key id 0x00000001");
        }
    }

    @Test
    void shouldKeepTheCodecsAQueueWasCreatedWith() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThat(queue.settings().codecs().isPlain()).isTrue();
        }
        assertThatThrownBy(() -> MappedQueue.builder(dir).codecs(ExcerptCodecs.none().withChecksums()).build())
                .isInstanceOf(CodecsMismatchException.class)
                .hasMessageContaining("created with codecs: none");
        assertThatThrownBy(() -> MappedQueue.builder(dir).encryptionKeys(EncryptionKeys.of(key(1))).build())
                .isInstanceOf(CodecsMismatchException.class)
                .hasMessageContaining("is not encrypted");
        Path checked = dir.resolve("checked");
        try (MappedQueue queue = MappedQueue.builder(checked).codecs(ExcerptCodecs.none().withChecksums()).build()) {
            queue.acquireAppender().writeText("one");
        }
        try (MappedQueue queue = MappedQueue.builder(checked).build()) {
            assertThat(queue.settings().codecs().checksums()).isTrue();
            queue.acquireAppender().writeText("two");
            assertThat(readAll(queue)).containsExactly("one", "two");
        }
    }

    @Test
    void shouldNeverGiveTwoExcerptsTheSameNonceAcrossAppendersAndReopenings() throws IOException {
        EncryptionKeys keys = EncryptionKeys.of(key(3));
        int excerpts = 0;
        for (int round = 0; round < 3; round++) {
            try (MappedQueue queue = MappedQueue.builder(dir).codecs(ExcerptCodecs.none().withEncryption(keys))
                    .build()) {
                for (int a = 0; a < 4; a++) {
                    try (ExcerptAppender appender = queue.createAppender()) {
                        for (int i = 0; i < 25; i++) {
                            try (WriteContext wc = appender.writingDocument()) {
                                wc.bytes().writeLong(excerpts++);
                            }
                        }
                    }
                }
            }
        }
        List<String> nonces = new ArrayList<>();
        byte[] file = Files.readAllBytes(QueueFileBytes.cycleFile(dir));
        // Every data record: header word READY | length (bit 29), then key id, then the 12-byte nonce.
        ByteBuffer bytes = ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long dataStart = bytes.getLong(56);
        int p = (int) dataStart;
        while (p + 4 <= file.length) {
            int header = bytes.getInt(p);
            int length = header & 0x1FFFFFFF;
            if ((header & 0xE0000000) == 0x20000000) {
                nonces.add(java.util.HexFormat.of().formatHex(file, p + 8, p + 20));
            } else if ((header & 0xE0000000) != 0x60000000 || length == 0x1FFFFFFF) {
                break;
            }
            p = (p + 4 + length + 3) & ~3;
        }
        assertThat(nonces).hasSize(excerpts).doesNotHaveDuplicates();
    }

    private static long writePosition(Path file) throws IOException {
        return QueueFileBytes.readLong(file, 64);
    }

    private static long find(Path file, String marker) throws IOException {
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
        return -1;
    }

    private static void flip(Path file, long at) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ 0x01)).rewind();
            channel.write(one, at);
        }
    }
}
