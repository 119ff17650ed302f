package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The length an appender gives the cycle file it writes, block after block: whole 2 MiB where the block size is a
 * multiple of 2 MiB, so that no 4 KiB page the file system zeroes at an old end of file keeps the page cache from
 * reading the next 2 MiB in as one large folio (docs/file-format.md, "Mapping"); whole pages otherwise. Records of
 * every size up to the largest still lie whole in the chunk they start in, and read back.
 */
class CycleFileLengthTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @Test
    void shouldGrowTheFileInWhole2MiBAsTheAppenderCrossesBlocks() throws IOException {
        assertFileLengthsAndReadBack(dir.resolve("q4"), 4 * MIB, 2 * MIB, new SplittableRandom(4));
    }

    @Test
    void shouldGrowTheFileInWholePagesWhenTheBlockSizeIsNotAMultipleOf2MiB() throws IOException {
        assertFileLengthsAndReadBack(dir.resolve("q3"), 3 * MIB, 4096, new SplittableRandom(3));
    }

    @Test
    void shouldGiveAQueueWithTheDefaultBlockSizeA2MiBMultipleWhileItIsOpen() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.DAILY).build()) {
            queue.acquireAppender().writeText("one");
            assertThat(Files.size(cycleFile(dir.resolve("q"))) % (2 * MIB)).isZero();
        }
    }

    private static void assertFileLengthsAndReadBack(Path queuePath, long blockSize, long alignment,
                                                     SplittableRandom random) throws IOException {
        int largest = (int) (blockSize / 4);
        byte[][] written = new byte[0][];
        try (MappedQueue queue = MappedQueue.builder(queuePath).rollCycle(RollCycle.DAILY).blockSize(blockSize)
                .build()) {
            ExcerptAppender appender = queue.acquireAppender();
            long total = 0;
            while (total < 5 * blockSize) {
                // Mostly small excerpts, now and then one of the largest size: some start near a block's end.
                int size = random.nextInt(8) == 0 ? largest : 1 + random.nextInt(3000);
                byte[] payload = new byte[size];
                random.nextBytes(payload);
                appender.writeBytes(payload);
                written = Arrays.copyOf(written, written.length + 1);
                written[written.length - 1] = payload;
                total += size;
                assertThat(Files.size(cycleFile(queuePath)) % alignment).as("file length after %d bytes", total)
                        .isZero();
            }
        }
        try (MappedQueue queue = MappedQueue.builder(queuePath).rollCycle(RollCycle.DAILY).blockSize(blockSize)
                .build()) {
            ExcerptTailer tailer = queue.createTailer();
            for (byte[] payload : written) {
                assertThat(tailer.readBytes()).isEqualTo(payload);
            }
            assertThat(tailer.readBytes()).isNull();
        }
    }

    private static Path cycleFile(Path queuePath) throws IOException {
        try (Stream<Path> files = Files.list(queuePath)) {
            return files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }
}
