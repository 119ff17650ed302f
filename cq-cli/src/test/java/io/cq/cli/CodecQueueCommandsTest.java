package io.cq.cli;

import io.cq.cli.CqCliTest.Run;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static io.cq.cli.CqCliTest.cq;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands on queues with checksums and compression, which need no keys: verify checks every excerpt's
 * CRC-32C, dump and tail show the decoded excerpts, stats names the codecs. Encrypted queues:
 * {@link EncryptedQueueCommandsTest}.
 */
class CodecQueueCommandsTest {
    /** Compresses well, and holds a marker to find in the file when stored uncompressed. */
    private static final String LONG = "MARKER " + "{\"symbol\":\"EURUSD\",\"side\":\"BUY\",\"qty\":1000},".repeat(30);

    @TempDir
    Path dir;

    private Path queueOf(ExcerptCodecs codecs, String... texts) {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).codecs(codecs).build();
             ExcerptAppender appender = q.acquireAppender()) {
            for (String text : texts) {
                appender.writeText(text);
            }
        }
        return queue;
    }

    @Test
    void shouldVerifyAnIntactChecksummedCompressedQueue() {
        Path queue = queueOf(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 64), "alpha",
                LONG, "gamma");

        Run verify = cq("verify", queue.toString());

        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.lines()).containsExactly(queue + ": 1 files, 3 excerpts checked, intact");
    }

    @Test
    void shouldVerifyAnIntactQueueWithoutCodecs() {
        Path plain = queueOfPlain();

        Run verifyPlain = cq("verify", plain.toString());

        assertThat(verifyPlain.exitCode()).as(verifyPlain.toString()).isZero();
        assertThat(verifyPlain.lines()).containsExactly(plain + ": 1 files, 1 excerpts checked, intact");
    }

    @Test
    void shouldFindAFlippedPayloadByteInAChecksummedQueueNamingItsFilePositionAndIndex() throws IOException {
        Path queue = queueOf(ExcerptCodecs.none().withChecksums(), "alpha", LONG, "gamma");
        Path file = cycleFileOf(queue);
        long marker = positionOf(file, "MARKER");
        flip(file, marker + 3);
        long index;
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            index = q.firstIndex() + 1;
        }

        Run verify = cq("verify", queue.toString());

        assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
        // The record's header word is just before the excerpt's first byte.
        assertThat(verify.lines()).hasSize(2);
        assertThat(verify.lines().getFirst()).startsWith("DAMAGE " + file + " at " + (marker - 4) + ": excerpt "
                + index + ": checksum mismatch: stored 0x").endsWith(" over " + LONG.length() + " bytes; the "
                + "excerpt's bytes were changed after it was written, or a damaged record before it led here "
                + "from another excerpt's place");
        assertThat(verify.lines().getLast()).isEqualTo(queue + ": 1 files, 3 excerpts checked, damaged");
        assertThat(verify.err()).isEmpty();
    }

    @Test
    void shouldTailTheDecodedTextOfACompressedQueue() {
        Path queue = queueOf(ExcerptCodecs.none().withCompression(Compression.DEFLATE, 64), "alpha", LONG);

        Run tail = cq("tail", queue.toString());

        assertThat(tail.exitCode()).as(tail.toString()).isZero();
        assertThat(tail.lines()).containsExactly("alpha", LONG);
    }

    @Test
    void shouldDumpTheDecodedTextOfACompressedQueueWithItsCodecs() {
        Path queue = queueOf(ExcerptCodecs.none().withCompression(Compression.DEFLATE, 64), "alpha", LONG);

        Run dump = cq("dump", queue.toString());

        assertThat(dump.exitCode()).as(dump.toString()).isZero();
        assertThat(dump.out()).contains("codecs: DEFLATE compression from 64 bytes\n",
                "[stored uncompressed] \"alpha\"\n");
        assertThat(dump.out()).containsPattern("\\[compressed DEFLATE " + LONG.length() + " -> \\d+ bytes] \"MARKER");
    }

    @Test
    void shouldShowInStatsWhichCodecsAreOn() {
        Path queue = queueOf(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 256), "alpha");

        Run text = cq("stats", queue.toString());
        Run json = cq("stats", "--format", "json", queue.toString());

        assertThat(text.exitCode()).isZero();
        assertThat(text.out()).contains("\ncodecs       CRC-32C checksums, LZ4 compression from 256 bytes\n");
        assertThat(json.out()).contains("\"codecs\" : \"CRC-32C checksums, LZ4 compression from 256 bytes\"");
    }

    @Test
    void shouldShowInStatsThatAQueueHasNoCodecs() {
        Run plain = cq("stats", queueOfPlain().toString());
        assertThat(plain.out()).contains("\ncodecs       none\n");
    }

    private Path queueOfPlain() {
        Path plain = dir.resolve("plain");
        try (MappedQueue q = MappedQueue.builder(plain).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("alpha");
        }
        return plain;
    }

    static Path cycleFileOf(Path queue) throws IOException {
        try (Stream<Path> files = Files.list(queue)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    static long positionOf(Path file, String text) throws IOException {
        String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        int at = bytes.indexOf(text);
        assertThat(at).as(text + " in " + file).isNotNegative();
        return at;
    }

    static void flip(Path file, long at) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x01);
        }
    }

    @Test
    void shouldCreateAChecksummedCompressedQueueWithWriteCreate() throws IOException {
        Path queue = dir.resolve("made");
        Path input = dir.resolve("calls.yaml");
        Files.writeString(input, "[\"MARKER " + "symbol EURUSD side BUY qty 1000, ".repeat(30) + "\"]\n---\n"
                + "[\"short\"]\n");

        Run write = cq("write", "--create", "--checksums", "--compression", "lz4", "--compression-threshold", "64",
                queue.toString(), "onText", input.toString());

        assertThat(write.exitCode()).as(write.toString()).isZero();
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            ExcerptCodecs codecs = q.settings().codecs();
            assertThat(codecs.checksums()).isTrue();
            assertThat(codecs.compression()).isEqualTo(Compression.LZ4);
            assertThat(codecs.compressionThreshold()).isEqualTo(64);
        }
        String file = Files.readString(cycleFileOf(queue), StandardCharsets.ISO_8859_1);
        assertThat(file.split("EURUSD", -1)).as("30 repetitions stored once, as LZ4 compresses them").hasSize(2);
        Run verify = cq("verify", queue.toString());
        assertThat(verify.lines()).containsExactly(queue + ": 1 files, 2 excerpts checked, intact");
    }

    @Test
    void shouldRefuseCodecsOtherThanAnExistingQueuesOwnAndAppendNothing() throws IOException {
        Path queue = queueOf(ExcerptCodecs.none().withChecksums(), "alpha");
        Path input = Files.writeString(dir.resolve("call.yaml"), "[\"beta\"]\n");

        Run write = cq("write", "--compression", "deflate", queue.toString(), "onText", input.toString());

        assertThat(write.exitCode()).as(write.toString()).isEqualTo(2);
        assertThat(write.err()).contains("was created with codecs").contains("chosen when it is made");
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            assertThat(q.lastIndex()).isEqualTo(q.firstIndex());
        }
    }
}
