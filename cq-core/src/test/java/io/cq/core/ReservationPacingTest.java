package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.NumberedExcerpts;
import io.cq.core.support.PacedAppender;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A steady appender slower than the pace of a fast one's run-way gets about two seconds of its pace reserved and
 * faulted in at a time by the background thread, with native access; without it (a plain {@code java -jar}) the
 * appender reserves a step at a time itself. Either way every excerpt is kept and what was reserved ahead is given
 * back when the last writer closes (docs/operations.md, "Disk usage").
 */
class ReservationPacingTest {
    private static final long MIB = 1L << 20;
    private static final long STEP = 64 << 10;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldReserveAndFaultInTwoSecondsOfASteadyAppendersPaceWithNativeAccessAndAStepAtATimeWithout(
            boolean nativeAccess)
            throws Exception {
        Path queueDir = dir.resolve("steady");
        long ahead;
        long mappedAhead;
        long appended;
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of(), PacedAppender.class, queueDir.toString(),
                Long.toString(STEP), "1500", Long.toString(8 * STEP), nativeAccess ? Long.toString(4 * STEP) : "0")) {
            ahead = Long.parseLong(child.awaitLine("ahead", 60, TimeUnit.SECONDS).substring("ahead ".length()));
            mappedAhead = Long.parseLong(child.awaitLine("mapped-ahead", 30, TimeUnit.SECONDS)
                    .substring("mapped-ahead ".length()));
            appended = Long.parseLong(child.awaitLine("appended", 30, TimeUnit.SECONDS)
                    .substring("appended ".length()));
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
        }
        // About 2 MB/s for 1.5 s: 2 s of that pace is several MB, where a step is 64 KiB.
        assertThat(appended).isGreaterThan(1_000);
        if (nativeAccess) {
            assertThat(ahead).as("reserved ahead of what was written").isGreaterThanOrEqualTo(8 * STEP)
                    .isLessThanOrEqualTo(32 * MIB + 2 * STEP + MIB);
            // Faulted in by the background, not by the appender's first write into each fresh stretch, which would
            // zero the page cache's whole read-ahead window on the appender's thread (docs/performance.md).
            assertThat(mappedAhead).as("faulted in ahead of what was written").isGreaterThanOrEqualTo(4 * STEP);
        } else {
            assertThat(ahead).as("reserved ahead by the appender itself, a step at a time").isLessThan(8 * STEP);
        }

        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build()) {
            QueueDiskUsage usage = queue.diskUsage();
            assertThat(usage.allocatedBytes() - usage.writtenBytes()).as("given back when the last writer closed")
                    .isLessThanOrEqualTo(MIB);
        }
        assertThat(NumberedExcerpts.readAll(queueDir)).isEqualTo(appended);
        NumberedExcerpts.assertEveryBlockAllocated(queueDir);
    }
}
