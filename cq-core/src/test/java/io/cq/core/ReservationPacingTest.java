package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.NumberedExcerpts;
import io.cq.core.support.PacedAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

    /** One queue directory per access mode, shared by the tests of the class. */
    @TempDir
    static Path dir;

    /** What a paced appender in a child JVM saw, per access mode: one child per mode for all tests. */
    private static final Map<Boolean, PacedRun> RUNS = new ConcurrentHashMap<>();

    /** The paced appender's queue, what it saw reserved and faulted in ahead of its writes, and how many it wrote. */
    private record PacedRun(Path queueDir, long ahead, long mappedAhead, long appended) {
    }

    private static PacedRun pacedRun(boolean nativeAccess) throws Exception {
        PacedRun cached = RUNS.get(nativeAccess);
        if (cached != null) {
            return cached;
        }
        Path queueDir = dir.resolve("steady-" + nativeAccess);
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
        PacedRun run = new PacedRun(queueDir, ahead, mappedAhead, appended);
        RUNS.put(nativeAccess, run);
        return run;
    }

    @Test
    void shouldReserveTwoSecondsOfASteadyAppendersPaceAheadWithNativeAccess() throws Exception {
        assertThat(pacedRun(true).ahead()).as("reserved ahead of what was written").isGreaterThanOrEqualTo(8 * STEP)
                .isLessThanOrEqualTo(32 * MIB + 2 * STEP + MIB);
    }

    @Test
    void shouldFaultInWhatItReservesAheadOfASteadyAppenderWithNativeAccess() throws Exception {
        // Faulted in by the background, not by the appender's first write into each fresh stretch, which would
        // zero the page cache's whole read-ahead window on the appender's thread (docs/performance.md).
        assertThat(pacedRun(true).mappedAhead()).as("faulted in ahead of what was written")
                .isGreaterThanOrEqualTo(4 * STEP);
    }

    @Test
    void shouldReserveAStepAtATimeInTheAppenderWithoutNativeAccess() throws Exception {
        assertThat(pacedRun(false).ahead()).as("reserved ahead by the appender itself, a step at a time")
                .isLessThan(8 * STEP);
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldGiveBackWhatWasReservedAheadWhenTheLastWriterCloses(boolean nativeAccess) throws Exception {
        try (MappedQueue queue = MappedQueue.builder(pacedRun(nativeAccess).queueDir()).readOnly(true).build()) {
            QueueDiskUsage usage = queue.diskUsage();
            assertThat(usage.allocatedBytes() - usage.writtenBytes()).as("given back when the last writer closed")
                    .isLessThanOrEqualTo(MIB);
        }
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldKeepEveryExcerptOfASteadyAppender(boolean nativeAccess) throws Exception {
        PacedRun run = pacedRun(nativeAccess);
        assertThat(NumberedExcerpts.readAll(run.queueDir())).isEqualTo(run.appended());
        NumberedExcerpts.assertEveryBlockAllocated(run.queueDir());
    }
}
