package io.cq.core.codec;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.TailerDirection;
import io.cq.core.WriteContext;
import io.cq.core.message.Messages;
import io.cq.core.message.MethodReader;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;

/** What works on a plain queue works on one with every codec on: each feature, on an encrypted, compressed queue. */
class CodecQueueFeaturesTest {
    static final byte[] KEY = Base64.getDecoder().decode("q1Fq1Pj7nG2k8m3XgVw0cY1aTz9bQe4rU6sJhLkM2dA=");
    static final EncryptionKeys KEYS = EncryptionKeys.of(5, Map.of(5, new SecretKeySpec(KEY, "AES")));
    static final ExcerptCodecs ALL = ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 16)
            .withEncryption(KEYS);

    @TempDir
    Path dir;

    public interface Orders {
        void placed(String symbol, long quantity, double price);
    }

    private MappedQueueBuilder builder() {
        return MappedQueue.builder(dir).codecs(ALL);
    }

    private static String text(ReadContext rc) {
        byte[] bytes = new byte[(int) rc.bytes().length()];
        rc.bytes().readBytes(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void shouldCarryMethodCallsThroughAnEncryptedCompressedQueue() {
        List<String> calls = new ArrayList<>();
        try (MappedQueue queue = builder().build()) {
            Orders writer = Messages.methodWriter(queue.acquireAppender(), Orders.class);
            for (int i = 0; i < 200; i++) {
                writer.placed("EURUSD-" + i, 1_000L * i, 1.0 + i / 1000.0);
            }
            MethodReader reader = Messages.methodReader(queue.createTailer(),
                    (Orders) (symbol, quantity, price) -> calls.add(symbol + " " + quantity + " " + price));
            while (reader.readOne()) {
                // every call
            }
        }
        assertThat(calls).hasSize(200).startsWith("EURUSD-0 0 1.0").endsWith("EURUSD-199 199000 1.199");
    }

    /** Appends "excerpt i xx…" (i times x) for i from 0 to 99; returns their indexes. */
    private static List<Long> appendAHundredOfGrowingSize(ExcerptAppender appender) {
        List<Long> indexes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            indexes.add(appender.writeText("excerpt " + i + " " + "x".repeat(i)));
        }
        return indexes;
    }

    @Test
    void shouldResumeANamedTailerOverFramedExcerpts() {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            appendAHundredOfGrowingSize(appender);
            try (ExcerptTailer named = queue.createTailer("audit")) {
                for (int i = 0; i < 40; i++) {
                    named.readText();
                }
            }
            try (ExcerptTailer named = queue.createTailer("audit")) {
                assertThat(named.readText()).isEqualTo("excerpt 40 " + "x".repeat(40));
            }
        }
    }

    @Test
    void shouldMoveToAnIndexAmongFramedExcerpts() {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            List<Long> indexes = appendAHundredOfGrowingSize(appender);
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(tailer.moveToIndex(indexes.get(73))).isTrue();
                assertThat(tailer.readText()).isEqualTo("excerpt 73 " + "x".repeat(73));
            }
        }
    }

    @Test
    void shouldReadFramedExcerptsBackward() {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            List<Long> indexes = appendAHundredOfGrowingSize(appender);
            try (ExcerptTailer tailer = queue.createTailer()) {
                tailer.direction(TailerDirection.BACKWARD);
                assertThat(tailer.moveToIndex(indexes.get(10))).isTrue();
                assertThat(tailer.readText()).isEqualTo("excerpt 10 " + "x".repeat(10));
                assertThat(tailer.readText()).isEqualTo("excerpt 9 " + "x".repeat(9));
            }
        }
    }

    @Test
    void shouldGiveAContextThatAsksItsIndexWhileComposingTheIndexItIsPublishedAt() {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("first");
            long asked;
            try (WriteContext wc = appender.writingDocument()) {
                wc.bytes().writeLong(42);
                asked = wc.index();
                wc.bytes().writeLong(43);
            }
            try (WriteContext wc = appender.writingDocument()) {
                wc.bytes().writeLong(99);
                wc.rollbackOnClose();
            }
            assertThat(appender.lastIndexAppended()).isEqualTo(asked);
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(tailer.moveToIndex(asked)).isTrue();
                try (ReadContext rc = tailer.readingDocument()) {
                    assertThat(rc.bytes().readLong()).isEqualTo(42);
                    assertThat(rc.bytes().readLong()).isEqualTo(43);
                    assertThat(rc.bytes().remaining()).isZero();
                }
                assertThat(tailer.readingDocument().isPresent()).isFalse();
            }
        }
    }

    private interface WhileOpen {
        void check(MappedQueue queue);
    }

    /** Appends "async secret 0" to 1999 to an async queue with every codec on, runs the check, then closes. */
    private static void appendAsyncSecrets(Path queueDir, Path buffers, WhileOpen whileOpen) {
        try (MappedQueue queue = MappedQueue.builder(queueDir).codecs(ALL).asyncMode(true)
                .asyncBufferDirectory(buffers).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 2_000; i++) {
                appender.writeText("async secret " + i);
            }
            whileOpen.check(queue);
        }
    }

    @Test
    void shouldLetTailersReadEveryExcerptOfAnAsyncEncryptedQueue() throws Exception {
        Path buffers = Files.createDirectories(dir.resolve("buffers"));
        appendAsyncSecrets(dir.resolve("async"), buffers, queue -> {
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int i = 0; i < 2_000; i++) {
                    assertThat(tailer.readText()).isEqualTo("async secret " + i);
                }
            }
        });
    }

    @Test
    void shouldDrainAnAsyncEncryptedQueueIntoFilesAnotherOpeningReads() throws Exception {
        Path buffers = Files.createDirectories(dir.resolve("buffers"));
        Path queueDir = dir.resolve("async");
        appendAsyncSecrets(queueDir, buffers, queue -> { });

        try (MappedQueue reread = MappedQueue.builder(queueDir).readOnly(true).encryptionKeys(KEYS).build();
             ExcerptTailer tailer = reread.createTailer()) {
            for (int i = 0; i < 2_000; i++) {
                assertThat(tailer.readText()).isEqualTo("async secret " + i);
            }
        }
    }

    @Test
    void shouldDrainAnAsyncQueueIntoEncryptedFiles() throws Exception {
        Path buffers = Files.createDirectories(dir.resolve("buffers"));
        Path queueDir = dir.resolve("async");
        appendAsyncSecrets(queueDir, buffers, queue -> { });

        try (Stream<Path> files = Files.list(queueDir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".cq4")).toList()) {
                assertThat(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1))
                        .doesNotContain("async secret");
            }
        }
    }

    @Test
    void shouldApplyRetentionToADoubleBufferedQueueAcrossRolls() {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-07T10:00:00Z"));
        try (MappedQueue queue = builder().doubleBuffer(true).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .retainCycles(2).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int cycle = 0; cycle < 4; cycle++) {
                for (int i = 0; i < 10; i++) {
                    appender.writeText("cycle " + cycle + " excerpt " + i);
                }
                clock.advance(Duration.ofSeconds(1));
            }
            appender.writeText("last");
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(tailer.readText()).isEqualTo("cycle 3 excerpt 0");
            }
        }
    }

    @Test
    void shouldLetAnotherJvmReadWhatThisOneEncryptedWithTheSameKeys() throws Exception {
        try (MappedQueue queue = builder().build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 50; i++) {
                appender.writeText("across processes " + i);
            }
        }
        List<String> printed = ChildJvm.runToEnd(false, EncryptedReader.class, dir.toString());
        assertThat(printed).contains("read 50, last: across processes 49");
    }

    @Test
    void shouldWriteChecksummedAndEncryptedQueuesInAJvmWithoutNativeAccess() throws Exception {
        // As a plain 'java -jar' runs: no --enable-native-access, so blocks are reserved without fallocate.
        Path checked = dir.resolve("checked");
        Path sealed = dir.resolve("sealed");
        ChildJvm.runToEnd(false, CodecWriter.class, checked.toString(), sealed.toString());
        try (MappedQueue queue = MappedQueue.builder(checked).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThat(queue.settings().codecs().checksums()).isTrue();
            for (int i = 0; i < 500; i++) {
                assertThat(tailer.readText()).isEqualTo("checked " + i + " " + "y".repeat(i % 300));
            }
            assertThat(tailer.readText()).isNull();
        }
        try (MappedQueue queue = MappedQueue.builder(sealed).readOnly(true).encryptionKeys(KEYS).build();
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 500; i++) {
                assertThat(tailer.readText()).isEqualTo("sealed " + i + " " + "z".repeat(i % 300));
            }
            assertThat(tailer.readText()).isNull();
        }
    }

    /** A second JVM, started without native access: writes a checksummed queue and an encrypted, compressed one. */
    public static final class CodecWriter {
        public static void main(String[] args) {
            try (MappedQueue queue = MappedQueue.builder(Path.of(args[0]))
                    .codecs(ExcerptCodecs.none().withChecksums()).build();
                 ExcerptAppender appender = queue.createAppender()) {
                for (int i = 0; i < 500; i++) {
                    appender.writeText("checked " + i + " " + "y".repeat(i % 300));
                }
            }
            try (MappedQueue queue = MappedQueue.builder(Path.of(args[1])).codecs(ALL).build();
                 ExcerptAppender appender = queue.createAppender()) {
                for (int i = 0; i < 500; i++) {
                    appender.writeText("sealed " + i + " " + "z".repeat(i % 300));
                }
            }
        }
    }

    /** A second JVM: opens the queue with the keys only and reads every excerpt. */
    public static final class EncryptedReader {
        public static void main(String[] args) {
            try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).readOnly(true).encryptionKeys(KEYS).build();
                 ExcerptTailer tailer = queue.createTailer()) {
                int read = 0;
                String last = null;
                for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                    read++;
                    last = text;
                }
                System.out.println("read " + read + ", last: " + last);
            }
        }
    }
}
