package io.cq.core;

import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every take of the write lock advances the table store's write generation, and an appender skips reading the free
 * mark where its own last excerpt ended only while the generation is the one its last hold left
 * (docs/file-format.md, "Appending"): a record that another holder put there, even one that never moved the hints
 * (a writer that died after publishing), is found and written after, never over. The record is written here through
 * a channel, standing in for the dead writer; the take that follows it is a real one.
 */
class WriteGenerationTest {
    private static final long SEED = 0x6E4E_2A71L;

    @TempDir
    Path dir;

    @Test
    void shouldAdvanceTheWriteGenerationOnceForEveryTakeOfTheLockRolledBackOrNot() throws IOException {
        Random random = new Random(SEED);
        List<String> expected = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender first = queue.createAppender();
             ExcerptAppender second = queue.createAppender()) {
            long before = writeGeneration();
            int takes = 0;
            for (int i = 0; i < 500; i++) {
                ExcerptAppender appender = random.nextBoolean() ? first : second;
                String text = "excerpt " + i + " " + random.nextLong();
                try (WriteContext context = appender.writingDocument()) {
                    byte[] bytes = utf8(text);
                    context.bytes().writeBytes(bytes, 0, bytes.length);
                    if (random.nextInt(5) == 0) {
                        context.rollbackOnClose();
                    } else {
                        expected.add(text);
                    }
                }
                takes++;
                assertThat(writeGeneration()).as("after take %d", takes).isEqualTo(before + takes);
            }
        }
        assertThat(readAll()).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldReadTheFreeMarkAgainOnceAnotherHolderTookTheLockEvenWhereTheHintsDidNotMove() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender appender = queue.createAppender();
             ExcerptAppender taker = queue.createAppender()) {
            appender.writeBytes(utf8("one"));
            // A writer that published its record at the end and died before it moved the hints; then a writer that
            // took the lock and wrote nothing. The hints still say where "one" ended.
            Path cycle = onlyCycleFile();
            long end = headerLong(cycle, CycleHeaderDescriptor.WRITE_POSITION_OFFSET);
            long excerpts = headerLong(cycle, CycleHeaderDescriptor.SEQUENCE_OFFSET);
            publishBehindTheHints(cycle, end, excerpts, utf8("ghost"));
            try (WriteContext context = taker.writingDocument()) {
                context.rollbackOnClose();
            }
            assertThat(headerLong(cycle, CycleHeaderDescriptor.WRITE_POSITION_OFFSET)).as("hints unmoved")
                    .isEqualTo(end);

            appender.writeBytes(utf8("two"));

            assertThat(readAll()).containsExactly("one", "ghost", "two");
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldCountTheReleaseOfADeadProcesssLockOnOpenAsATake() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeBytes(utf8("one"));
        }
        // The lock word as a process in slot 0 leaves it when it dies holding the lock; the next process to open the
        // queue claims slot 0 and frees it.
        Path tableStore = dir.resolve(TableStoreDescriptor.FILE_NAME);
        long before = writeGeneration();
        writeLong(tableStore, LockWordDescriptor.WRITE_LOCK_OFFSET, LockWordDescriptor.token(0, 12_345));

        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThat(headerLong(tableStore, LockWordDescriptor.WRITE_LOCK_OFFSET)).isEqualTo(LockWordDescriptor.FREE);
            assertThat(writeGeneration()).isEqualTo(before + 1);
            try (ExcerptAppender appender = queue.createAppender()) {
                appender.writeBytes(utf8("two"));
            }
        }
        assertThat(readAll()).containsExactly("one", "two");
    }

    @Test
    void shouldAppendBehindItsOwnExcerptsWithoutLosingAnyWhileAnotherAppenderInterleaves() throws IOException {
        Random random = new Random(SEED + 1);
        List<String> expected = new ArrayList<>();
        // A small index spacing puts index blocks between the excerpts, written by whichever appender gets there.
        try (MappedQueue queue = MappedQueue.builder(dir).indexSpacing(4).build();
             ExcerptAppender first = queue.createAppender();
             ExcerptAppender second = queue.createAppender()) {
            for (int i = 0; i < 2_000; i++) {
                // Runs of several excerpts by one appender: the runs are where it skips the read.
                ExcerptAppender appender = (i / (1 + random.nextInt(4))) % 2 == 0 ? first : second;
                String text = "x".repeat(random.nextInt(200)) + i;
                appender.writeBytes(utf8(text));
                expected.add(text);
            }
            assertThat(queue.verify().findings()).isEmpty();
        }
        assertThat(readAll()).containsExactlyElementsOf(expected);
    }

    private List<String> readAll() {
        List<String> read = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            for (byte[] bytes = tailer.readBytes(); bytes != null; bytes = tailer.readBytes()) {
                read.add(new String(bytes, StandardCharsets.UTF_8));
            }
        }
        return read;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private long writeGeneration() throws IOException {
        return headerLong(dir.resolve(TableStoreDescriptor.FILE_NAME), LockWordDescriptor.WRITE_GENERATION_OFFSET);
    }

    /** A record as a writer publishes it (payload, the free mark after it, then its header), hints left as they are. */
    private static void publishBehindTheHints(Path cycle, long at, long excerptsBefore, byte[] payload)
            throws IOException {
        try (FileChannel channel = FileChannel.open(cycle, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(payload), at + ExcerptHeaderDescriptor.SIZE);
            long next = ExcerptHeaderDescriptor.next(at, payload.length);
            channel.write(intBuffer(ExcerptHeaderDescriptor.free(excerptsBefore + 1)), next);
            channel.write(intBuffer(ExcerptHeaderDescriptor.data(payload.length)), at);
        }
    }

    private static void writeLong(Path file, long at, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, value), at);
        }
    }

    private static ByteBuffer intBuffer(int value) {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.nativeOrder()).putInt(0, value);
    }

    private static long headerLong(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
            channel.read(buffer, offset);
            return buffer.getLong(0);
        }
    }

    private Path onlyCycleFile() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> cycles = files.filter(path -> path.toString().endsWith(".cq4")).toList();
            assertThat(cycles).hasSize(1);
            return cycles.getFirst();
        }
    }
}
