package io.cq.cli;

import io.cq.cli.ExcerptSizeHistogram.Route;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading excerpt sizes by either route: the same counts, samples that follow no pattern, damage reported. */
class ExcerptSizeHistogramTest {
    @TempDir
    Path dir;

    private Path queueOfSizes(int[]... cycles) {
        return SizedExcerpts.queueOfSizes(dir.resolve("q"), cycles);
    }

    private static int[] repeat(int size, int times) {
        return SizedExcerpts.repeat(size, times);
    }

    private static ExcerptSizeHistogram read(Path queue, long limit, Route route) {
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            return ExcerptSizeHistogram.read(q, q.countExcerpts(q.firstIndex(), q.lastIndex() + 1), limit, route);
        }
    }

    /** Counts of the ranges 0-15, 16-31, 32-63, 64-127 and 128-255 bytes. */
    private static long[] firstFiveRanges(ExcerptSizeHistogram histogram) {
        return IntStream.range(0, 5).mapToLong(histogram::count).toArray();
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void shouldReadOneExcerptFromEachRunAcrossCyclesByEitherRoute(Route route) {
        Path queue = queueOfSizes(repeat(8, 40), repeat(40, 20), repeat(200, 40));

        // Runs of 20: two in the first cycle, one in the second, two in the third.
        ExcerptSizeHistogram runsOfTwenty = read(queue, 5, route);
        // Runs of 3: the 14th (excerpts 39 to 41) straddles two cycles; the seed decides which one it reads from.
        ExcerptSizeHistogram runsOfThree = read(queue, 34, route);

        assertThat(runsOfTwenty.every()).isEqualTo(20);
        assertThat(firstFiveRanges(runsOfTwenty)).containsExactly(2, 0, 1, 0, 2);
        assertThat(runsOfThree.every()).isEqualTo(3);
        assertThat(runsOfThree.read()).isEqualTo(34);
        assertThat(firstFiveRanges(runsOfThree)).containsExactly(firstFiveRanges(read(queue, 34, Route.WALK)));
        assertThat(runsOfThree.count(0)).isBetween(13L, 14L);
        assertThat(runsOfThree.count(0) + runsOfThree.count(2)).isEqualTo(20);
        assertThat(runsOfThree.count(4)).isEqualTo(14);
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void shouldReadEveryExcerptWhenTheLimitAllows(Route route) {
        Path queue = queueOfSizes(new int[] {0, 15, 16, 100}, new int[] {255, 256});

        ExcerptSizeHistogram histogram = read(queue, 6, route);

        assertThat(histogram.every()).isOne();
        assertThat(histogram.read()).isEqualTo(6);
        assertThat(IntStream.rangeClosed(histogram.firstRange(), histogram.lastRange()).mapToLong(histogram::count)
                .toArray())
                .containsExactly(2, 1, 0, 1, 1, 1);
        assertThat(histogram.minBytes()).isZero();
        assertThat(histogram.maxBytes()).isEqualTo(256);
        assertThat(histogram.totalBytes()).isEqualTo(642);
        assertThat(histogram.damage()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void shouldNotFollowAPatternThatRepeatsWithTheRunLength(Route route) {
        int[] alternating = IntStream.range(0, 1_000).map(i -> i % 2 == 0 ? 8 : 40).toArray();
        Path queue = queueOfSizes(alternating);

        // Every 2nd excerpt would read only the 8-byte ones; one at random from each pair reads both about as often.
        ExcerptSizeHistogram histogram = read(queue, 500, route);

        assertThat(histogram.read()).isEqualTo(500);
        assertThat(histogram.count(0)).isBetween(200L, 300L);
        assertThat(histogram.count(2)).isEqualTo(500 - histogram.count(0));
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void shouldKeepWhatWasReadBeforeDamageAndSayWhere(Route route) throws IOException {
        Path queue = queueOfSizes(repeat(20, 40));
        long second;
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            second = q.dump().lines().filter(line -> line.matches("^0x[0-9a-f]+ @\\d+ .*")).skip(1).findFirst()
                    .map(line -> Long.parseLong(line.replaceAll("^0x[0-9a-f]+ @(\\d+) .*", "$1"))).orElseThrow();
        }
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek(second);
            raf.writeInt(0x0BADF00D);
        }

        ExcerptSizeHistogram histogram = read(queue, 40, route);

        assertThat(histogram.read()).isOne();
        assertThat(histogram.damage()).isNotNull();
        assertThat(histogram.damage().file()).isEqualTo(cycleFile);
        assertThat(histogram.damage().position()).isEqualTo(second);
    }

    @Test
    void shouldJumpOnlyOverRunsOfManyBytesAndAtLeastTheIndexSpacing() {
        assertThat(ExcerptSizeHistogram.route(1, 44, 16)).isEqualTo(Route.WALK);
        assertThat(ExcerptSizeHistogram.route(186, 44, 16)).isEqualTo(Route.WALK);
        assertThat(ExcerptSizeHistogram.route(187, 44, 16)).isEqualTo(Route.JUMP);
        assertThat(ExcerptSizeHistogram.route(15, 1 << 20, 16)).isEqualTo(Route.WALK);
        assertThat(ExcerptSizeHistogram.route(16, 512, 16)).isEqualTo(Route.JUMP);
        assertThat(ExcerptSizeHistogram.route(16, 511, 16)).isEqualTo(Route.WALK);
        assertThat(ExcerptSizeHistogram.route(1_000_000, 0, 16)).isEqualTo(Route.JUMP);
    }

    @Test
    void shouldPutEachSizeInItsPowerOfTwoRange() {
        assertThat(ExcerptSizeHistogram.range(0)).isZero();
        assertThat(ExcerptSizeHistogram.range(15)).isZero();
        assertThat(ExcerptSizeHistogram.range(16)).isOne();
        assertThat(ExcerptSizeHistogram.range(1023)).isEqualTo(6);
        assertThat(ExcerptSizeHistogram.range(1024)).isEqualTo(7);
        assertThat(ExcerptSizeHistogram.fromBytes(7)).isEqualTo(1024);
        assertThat(ExcerptSizeHistogram.toBytes(7)).isEqualTo(2047);
        assertThat(ExcerptSizeHistogram.toBytes(ExcerptSizeHistogram.range(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }
}
