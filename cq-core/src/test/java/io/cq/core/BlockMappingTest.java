package io.cq.core;

import io.cq.core.support.BlockEdgeWriter;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an appender maps its file a block at a time (docs/file-format.md, "Mapping"): the next block is mapped, which
 * lengthens the file, half-way through the current one, by the appender itself (only the write-lock holder changes a
 * file's length), and excerpts read back whole on either side of every block edge. The appender runs in a child JVM
 * with native access and without it (a plain {@code java -jar}, where blocks are reserved by writing zeros).
 */
class BlockMappingTest {
    private static final long BLOCK = 64 * 1024;
    private static final long SEED = 0x5EED_B10CL;
    private static final int COUNT = 4_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldLengthenTheFileByABlockHalfWayThroughEachBlockAndReadEveryExcerptBack(boolean nativeAccess)
            throws Exception {
        Path queueDir = dir.resolve("q");
        Path sizesFile = dir.resolve("sizes");
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of(), BlockEdgeWriter.class, queueDir.toString(),
                Long.toString(BLOCK), Long.toString(SEED), Integer.toString(COUNT), sizesFile.toString())) {
            child.awaitLine("done", 60, TimeUnit.SECONDS);
        }
        byte[][] written = BlockEdgeWriter.excerpts(SEED, COUNT);
        long[] sizeAfter = Files.readAllLines(sizesFile).stream().mapToLong(Long::parseLong).toArray();
        assertThat(sizeAfter).hasSize(COUNT);

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

        try (MappedQueue queue = BlockEdgeWriter.open(queueDir, BLOCK); ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < written.length; i++) {
                assertThat(tailer.readBytes()).as("excerpt %d", i).isEqualTo(written[i]);
            }
            assertThat(tailer.readBytes()).isNull();
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }
}
