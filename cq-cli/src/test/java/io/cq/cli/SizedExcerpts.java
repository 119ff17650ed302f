package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;

/** Queues of excerpts of known sizes, for the tests of the excerpt-size histogram. */
final class SizedExcerpts {
    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");

    private SizedExcerpts() {
    }

    /** A queue at {@code queue} with one cycle (a second of {@code TEST_SECONDLY}) per array, one excerpt a size. */
    static Path queueOfSizes(Path queue, int[]... cycles) {
        for (int second = 0; second < cycles.length; second++) {
            Clock clock = Clock.fixed(START.plusSeconds(second), ZoneOffset.UTC);
            try (MappedQueue q = MappedQueue.builder(queue).rollCycle(RollCycle.TEST_SECONDLY).clock(clock).build();
                 ExcerptAppender appender = q.createAppender()) {
                for (int size : cycles[second]) {
                    try (WriteContext context = appender.writingDocument()) {
                        context.bytes().writeBytes(new byte[size]);
                    }
                }
            }
        }
        return queue;
    }

    static int[] repeat(int size, int times) {
        int[] sizes = new int[times];
        Arrays.fill(sizes, size);
        return sizes;
    }
}
