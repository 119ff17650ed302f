package io.cq.core.codec;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a queue whose excerpts are sealed under the write lock (encrypted), the record the lock holder opens keeps the
 * free mark in its header until the excerpt is published (docs/file-format.md, "Appending", step 5), as on a plain
 * queue: a tailer polling the end waits at the free mark, and a writer that dies while sealing leaves nothing behind
 * it to discard. The header words are read from the file as the format describes them.
 */
class SealedRecordMarkTest {
    private static final int FREE = 0xC000_0000;
    private static final long WRITE_POSITION_OFFSET = 64;

    @TempDir
    Path dir;

    @Test
    void shouldKeepTheFreeMarkWhileAnEncryptedExcerptIsOpenUnderTheLock() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).codecs(CodecQueueFeaturesTest.ALL).build();
             ExcerptAppender appender = queue.createAppender(); ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("first");
            appender.writeText("second");
            assertThat(tailer.readText()).isEqualTo("first");
            assertThat(tailer.readText()).isEqualTo("second");
            try (WriteContext wc = appender.writingDocument()) {
                wc.bytes().writeBytes("third, sealed for the index it was told".getBytes(StandardCharsets.UTF_8));
                // Asking the index takes the write lock and opens the record while the excerpt is still composed.
                long index = wc.index();
                assertThat(queue.rollCycle().toSequenceNumber(index)).isEqualTo(2);
                assertThat(endWord(onlyCycleFile(dir))).as("the open record's header").isEqualTo(FREE | 2);
                assertThat(tailer.readText()).isNull();
            }
            assertThat(tailer.readText()).isEqualTo("third, sealed for the index it was told");
            assertThat(endWord(onlyCycleFile(dir))).isEqualTo(FREE | 3);
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldKeepTheFreeMarkWhileAPlainExcerptIsWrittenInPlace() throws IOException {
        // The same reading on a plain queue: its record keeps the free mark too, though its bytes are being written.
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("first");
            try (WriteContext wc = appender.writingDocument()) {
                wc.bytes().writeUtf8("in place");
                assertThat(endWord(onlyCycleFile(dir))).isEqualTo(FREE | 1);
            }
            assertThat(endWord(onlyCycleFile(dir))).isEqualTo(FREE | 2);
        }
    }

    @Test
    void shouldLeaveNothingToDiscardWhenAWriterDiesSealingUnderTheLock() throws Exception {
        Path queueDir = dir.resolve("q");
        try (ChildJvm writer = ChildJvm.start(false, List.of(), DyingSealer.class, queueDir.toString())) {
            writer.awaitLine("holding", 60, TimeUnit.SECONDS);
            assertThat(endWord(onlyCycleFile(queueDir))).as("the dying writer's open record")
                    .isEqualTo(FREE | DyingSealer.BEFORE);
            writer.kill();
        }
        try (MappedQueue queue = MappedQueue.builder(queueDir).codecs(CodecQueueFeaturesTest.ALL).build();
             ExcerptAppender appender = queue.createAppender(); ExcerptTailer tailer = queue.createTailer()) {
            // Takes over the dead writer's lock, and appends where its record would have been.
            appender.writeText("after the writer died");
            for (int i = 0; i < DyingSealer.BEFORE; i++) {
                assertThat(tailer.readText()).isEqualTo(DyingSealer.text(i));
            }
            assertThat(tailer.readText()).isEqualTo("after the writer died");
            assertThat(tailer.readText()).isNull();
            assertThat(queue.verify().findings()).isEmpty();
            assertThat(endWord(onlyCycleFile(queueDir))).isEqualTo(FREE | (DyingSealer.BEFORE + 1));
        }
    }

    /** The header word at the cycle file's write-position hint: where the next record goes. */
    private static int endWord(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file)) {
            long end = readLittleEndian(channel, WRITE_POSITION_OFFSET, Long.BYTES).getLong();
            return readLittleEndian(channel, end, Integer.BYTES).getInt();
        }
    }

    private static ByteBuffer readLittleEndian(FileChannel channel, long at, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, at + buffer.position()) < 0) {
                throw new IOException("file ends before " + (at + length));
            }
        }
        return buffer.flip();
    }

    private static Path onlyCycleFile(Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            List<Path> cycles = files.filter(path -> path.toString().endsWith(".cq4")).toList();
            assertThat(cycles).hasSize(1);
            return cycles.getFirst();
        }
    }

    /**
     * Child-JVM main: appends {@link #BEFORE} excerpts to an encrypted queue, then opens another under the write lock
     * (by asking its index) and stays so, printing {@code holding}, until killed.
     */
    public static final class DyingSealer {
        static final int BEFORE = 7;

        private DyingSealer() {
        }

        static String text(int i) {
            return "excerpt " + i + " of the writer that dies";
        }

        public static void main(String[] args) {
            MappedQueue queue = MappedQueue.builder(Path.of(args[0])).codecs(CodecQueueFeaturesTest.ALL).build();
            ExcerptAppender appender = queue.createAppender();
            for (int i = 0; i < BEFORE; i++) {
                appender.writeText(text(i));
            }
            WriteContext open = appender.writingDocument();
            open.bytes().writeBytes("never published".getBytes(StandardCharsets.UTF_8));
            open.index();
            System.out.println("holding");
            while (true) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
    }
}
