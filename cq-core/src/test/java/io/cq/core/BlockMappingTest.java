package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an appender maps its file a block at a time (docs/file-format.md, "Mapping"): the next block is mapped, which
 * lengthens the file, half-way through the current one, by the appender itself (only the write-lock holder changes a
 * file's length), and excerpts read back whole on either side of every block edge.
 */
class BlockMappingTest {
    private static final long BLOCK = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void shouldLengthenTheFileByABlockHalfWayThroughEachBlockAndReadEveryExcerptBack() throws IOException {
        SplittableRandom random = new SplittableRandom(0x5EED_B10CL);
        byte[][] written = new byte[4_000][];
        long[] sizeAfter = new long[written.length];
        // A small roll cycle, for a small block; a clock that stands still, for one cycle.
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY)
                .clock(new MutableClock(Instant.parse("2026-11-27T10:00:00Z"))).blockSize(BLOCK).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < written.length; i++) {
                written[i] = new byte[1 + random.nextInt(200)];
                random.nextBytes(written[i]);
                appender.writeBytes(written[i]);
                sizeAfter[i] = Files.size(cycleFile());
            }

            // The file is lengthened a block at a time, and before the appender gets there: each time, the bytes
            // written since the previous lengthening are about a block, and the first time about half of one.
            long writtenBytes = 0;
            long writtenAtLastGrowth = -1;
            int growths = 0;
            for (int i = 1; i < written.length; i++) {
                writtenBytes += written[i].length + 4;
                if (sizeAfter[i] != sizeAfter[i - 1]) {
                    growths++;
                    assertThat(sizeAfter[i] - sizeAfter[i - 1]).as("growth %d, after excerpt %d", growths, i)
                            .isEqualTo(BLOCK);
                    if (writtenAtLastGrowth < 0) {
                        assertThat(writtenBytes).as("written when the second block is mapped")
                                .isBetween(BLOCK / 4, BLOCK - BLOCK / 8);
                    } else {
                        assertThat(writtenBytes - writtenAtLastGrowth).as("written between two growths")
                                .isBetween(BLOCK - BLOCK / 4, BLOCK + BLOCK / 4);
                    }
                    writtenAtLastGrowth = writtenBytes;
                }
            }
            assertThat(growths).as("blocks mapped ahead for about %d bytes of records", writtenBytes)
                    .isGreaterThanOrEqualTo((int) (writtenBytes / BLOCK) - 1);

            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < written.length; i++) {
                assertThat(tailer.readBytes()).as("excerpt %d", i).isEqualTo(written[i]);
            }
            assertThat(tailer.readBytes()).isNull();
        }
    }

    private Path cycleFile() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("q"))) {
            return files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }
}
