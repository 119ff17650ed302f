package io.cq.core;

import io.cq.core.support.BlockEdgeWriter;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an appender maps its file a block at a time (docs/file-format.md, "Mapping"): the next block is mapped, which
 * lengthens the file, half-way through the current one, by the appender itself (only the write-lock holder changes a
 * file's length), to a whole 2 MiB where the block size is a multiple of 2 MiB and whole pages otherwise (so that no
 * 4 KiB page the file system zeroes at an old end of file keeps the page cache from reading the next 2 MiB in as one
 * large folio), and excerpts read back whole on either side of every block edge, the largest too. The appender runs
 * in a child JVM with native access and without it (a plain {@code java -jar}, where blocks are reserved by writing
 * zeros).
 */
class BlockMappingTest {
    private static final long BLOCK = 64 * 1024;
    private static final long SEED = 0x5EED_B10CL;
    private static final int COUNT = 4_000;
    private static final long MIB = 1L << 20;
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldLengthenTheFileByABlockHalfWayThroughEachBlock(boolean nativeAccess) throws Exception {
        long[] sizeAfter = writeInChildJvm(nativeAccess, BLOCK, COUNT, 0).stream().mapToLong(Long::longValue).toArray();
        byte[][] written = BlockEdgeWriter.excerpts(SEED, COUNT);

        // The file is lengthened a block at a time, and before the appender gets there: each time, the bytes
        // written since the previous lengthening are about a block, and the first time about half of one.
        long writtenBytes = 0;
        long writtenAtLastGrowth = -1;
        int growths = 0;
        assertThat(Arrays.stream(sizeAfter).map(size -> size % PAGE).toArray())
                .as("file lengths modulo a page (a 64 KiB block is no multiple of 2 MiB)").containsOnly(0L);
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
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldReadBackEveryExcerptOnEitherSideOfEveryBlockEdge(boolean nativeAccess) throws Exception {
        writeInChildJvm(nativeAccess, BLOCK, COUNT, 0);

        assertReadBack(BLOCK, BlockEdgeWriter.excerpts(SEED, COUNT));
    }

    @ParameterizedTest(name = "native access: {0}, block {1} B")
    @CsvSource({"true, 4194304, 2097152", "false, 4194304, 2097152", "true, 3145728, 4096", "false, 3145728, 4096"})
    void shouldEndTheFileOnAnAlignedBoundaryEachTimeItGrows(boolean nativeAccess, long block, long alignment)
            throws Exception {
        // Mostly small excerpts, about one in eight of the largest size: some start near a block's end.
        int count = 200;
        List<Long> sizes = writeInChildJvm(nativeAccess, block, count, 8);
        byte[][] written = BlockEdgeWriter.excerpts(SEED, count, BlockEdgeWriter.largest(block), 8);
        long total = Arrays.stream(written).mapToLong(excerpt -> excerpt.length).sum();
        assertThat(total).as("bytes written, across several blocks").isGreaterThan(4 * block);
        for (int i = 0; i < count; i++) {
            assertThat(sizes.get(i) % alignment).as("file length after excerpt %d", i).isZero();
        }
    }

    @ParameterizedTest(name = "native access: {0}, block {1} B")
    @CsvSource({"true, 4194304", "false, 4194304", "true, 3145728", "false, 3145728"})
    void shouldReadBackTheLargestExcerptsOnEitherSideOfABlockEdge(boolean nativeAccess, long block) throws Exception {
        // Mostly small excerpts, about one in eight of the largest size: some start near a block's end.
        int count = 200;
        writeInChildJvm(nativeAccess, block, count, 8);

        assertReadBack(block, BlockEdgeWriter.excerpts(SEED, count, BlockEdgeWriter.largest(block), 8));
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldMakeAFileOfTheDefaultBlockSize82MiBLongWhileItIsWritten(boolean nativeAccess) throws Exception {
        long block = MappedQueueBuilder.DEFAULT_BLOCK_SIZE;
        List<Long> sizes = writeInChildJvm(nativeAccess, block, 3, 0);
        // 64 MiB, a 16 MiB excerpt and its header word, rounded up to 2 MiB.
        assertThat(sizes).allMatch(size -> size % (2 * MIB) == 0).containsOnly(82 * MIB);
        assertReadBack(block, BlockEdgeWriter.excerpts(SEED, 3));
    }

    private List<Long> writeInChildJvm(boolean nativeAccess, long block, int count, int largestEvery)
            throws Exception {
        Path sizesFile = dir.resolve("sizes");
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of(), BlockEdgeWriter.class, dir.resolve("q")
                .toString(), Long.toString(block), Long.toString(SEED), Integer.toString(count), sizesFile.toString(),
                Integer.toString(largestEvery))) {
            child.awaitLine("done", 60, TimeUnit.SECONDS);
        }
        List<Long> sizes = Files.readAllLines(sizesFile).stream().map(Long::valueOf).toList();
        assertThat(sizes).hasSize(count);
        return sizes;
    }

    private void assertReadBack(long block, byte[][] written) {
        try (MappedQueue queue = BlockEdgeWriter.open(dir.resolve("q"), block);
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < written.length; i++) {
                assertThat(tailer.readBytes()).as("excerpt %d", i).isEqualTo(written[i]);
            }
            assertThat(tailer.readBytes()).isNull();
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }
}
