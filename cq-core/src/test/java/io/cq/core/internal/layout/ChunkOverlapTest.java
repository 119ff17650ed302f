package io.cq.core.internal.layout;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How far each chunk maps beyond its block (docs/file-format.md, "Mapping"): the largest record and the word after
 * it, and no further than the next 2 MiB boundary, on which a writer's mapping ends (and with it the length it gives
 * the file) wherever the block size is a multiple of 2 MiB; on a page boundary otherwise.
 */
class ChunkOverlapTest {
    private static final long MIB = 1L << 20;

    @Test
    void shouldEndAWriterMappingOnA2MiBBoundaryWhenTheBlockSizeIsAMultipleOfIt() {
        SplittableRandom random = new SplittableRandom(7_2026_1127L);
        for (int i = 0; i < 100_000; i++) {
            long blockSize = BlockDescriptor.LARGE_FOLIO * (1 + random.nextInt(512)); // 2 MiB to 1 GiB
            long overlap = BlockDescriptor.overlap(blockSize);
            long needed = BlockDescriptor.maxExcerptSize(blockSize) + 64;
            assertThat((blockSize + overlap) % BlockDescriptor.LARGE_FOLIO).isZero();
            assertThat(overlap).isGreaterThanOrEqualTo(needed).isLessThan(needed + BlockDescriptor.LARGE_FOLIO);
        }
        assertThat(BlockDescriptor.overlap(64 * MIB)).isEqualTo(18 * MIB);
    }

    @Test
    void shouldEndAWriterMappingOnAPageBoundaryForOtherBlockSizes() {
        SplittableRandom random = new SplittableRandom(11_2026_1127L);
        for (int i = 0; i < 100_000; i++) {
            long blockSize = BlockDescriptor.PAGE * (16 + random.nextInt(1 << 18)); // 64 KiB to 1 GiB, whole pages
            if (blockSize % BlockDescriptor.LARGE_FOLIO == 0) {
                continue;
            }
            long overlap = BlockDescriptor.overlap(blockSize);
            long needed = BlockDescriptor.maxExcerptSize(blockSize) + 64;
            assertThat((blockSize + overlap) % BlockDescriptor.PAGE).isZero();
            assertThat(overlap).isGreaterThanOrEqualTo(needed).isLessThan(needed + BlockDescriptor.PAGE);
        }
    }
}
