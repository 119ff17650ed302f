package io.cq.core.internal.layout;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a reservation stops (docs/file-format.md, "Reserving and shrinking"): always past what must be covered, in
 * whole pages; at least half a step beyond it; on a step boundary at most a step and a half beyond it, except the
 * first one a process makes in a file, which stops half a step beyond it.
 */
class ReservationEndTest {
    /** A step of 64 KiB to 16 MiB in whole pages and an end to cover, for each of 100,000 draws. */
    private interface Draw {
        void check(long step, long end);
    }

    private static void forEachOfManyDraws(Draw draw) {
        SplittableRandom random = new SplittableRandom(20261127);
        for (int i = 0; i < 100_000; i++) {
            long step = BlockDescriptor.PAGE * (16 + random.nextInt(4096)); // 64 KiB to 16 MiB, whole pages
            long end = 1 + random.nextLong(1L << 40);
            draw.check(step, end);
        }
    }

    @Test
    void shouldEndALaterReservationOnAStepBoundaryHalfAStepToAStepAndAHalfBeyond() {
        forEachOfManyDraws((step, end) -> {
            long later = BlockDescriptor.reservationEnd(end, step);
            assertThat(later % step).isZero();
            assertThat(later).isGreaterThanOrEqualTo(end + step / 2).isLessThan(end + step / 2 + step);
        });
    }

    @Test
    void shouldEndTheFirstReservationInWholePagesHalfAStepBeyondNoFurtherThanALaterOne() {
        forEachOfManyDraws((step, end) -> {
            long first = BlockDescriptor.firstReservationEnd(end, step);
            assertThat(first % BlockDescriptor.PAGE).isZero();
            assertThat(first).isGreaterThanOrEqualTo(end + step / 2)
                    .isLessThan(end + step / 2 + BlockDescriptor.PAGE)
                    .isLessThanOrEqualTo(BlockDescriptor.reservationEnd(end, step));
        });
    }

    @Test
    void shouldKeepAnXlargeDailyQueueHoldingOneExcerptUnderAMebibyte() {
        // The first record of a new XLARGE_DAILY file starts past 256 KiB of header and index.
        long dataStart = CycleHeaderDescriptor.dataStart(16384);
        long firstRecordEnd = dataStart + ExcerptHeaderDescriptor.SIZE + IndexDescriptor.indexBlockLength(16384) + 64;
        long step = BlockDescriptor.DEFAULT_RESERVE_STEP;
        assertThat(BlockDescriptor.reservationEnd(firstRecordEnd, step)).isEqualTo(1L << 20);
        assertThat(BlockDescriptor.firstReservationEnd(firstRecordEnd, step)).isLessThan(800L << 10);
    }
}
