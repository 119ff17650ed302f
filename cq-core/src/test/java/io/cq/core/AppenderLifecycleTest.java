package io.cq.core;

import io.cq.core.support.MutableClock;
import io.cq.core.support.ProcessResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Thread-bound appenders ({@link MappedQueue#acquireAppender()}) go when their thread ends or their queue closes:
 * nothing piles up per thread, platform or virtual, and no thread keeps a closed queue reachable.
 *
 * <p>The open-append-read-close test runs 2,500 cycles and allows 400 bytes of heap a cycle (a closed queue kept
 * reachable holds some 3 KiB, a leaked descriptor fails at once); {@code -Psoak} (docs/testing.md) runs 10,000, as
 * {@code -Dcq.soak.cycles=N} does. The virtual-thread test starts 50,000 threads (an appender kept per thread fails
 * the count of open appenders at any number) and allows 8 MiB of heap more, 84 bytes a thread above 100,000;
 * {@code -Psoak} starts 200,000 (16 MiB), as {@code -Dcq.soak.virtualThreads=N} does.
 */
class AppenderLifecycleTest {
    private static final long MIB = 1L << 20;
    /** Open-append-read-close cycles; the heap may grow by {@link #BYTES_PER_CYCLE} a cycle, no more. */
    private static final int CYCLES = Integer.getInteger("cq.soak.cycles", 2_500);
    private static final long BYTES_PER_CYCLE = 400;
    /** Virtual threads appending once each; the heap may grow by {@link #BYTES_PER_THREAD} a thread, 8 MiB at least. */
    private static final int VIRTUAL_THREADS = Integer.getInteger("cq.soak.virtualThreads", 50_000);
    private static final long BYTES_PER_THREAD = 84;

    @TempDir
    Path dir;

    @Test
    void shouldReleaseTheAppendersOfEndedPlatformThreads() throws Exception {
        MutableClock clock = new MutableClock(java.time.Instant.parse("2026-03-01T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.MINUTELY).clock(clock)
                .retainCycles(2).build()) {
            queue.acquireAppender().writeText("warm-up");
            QueueResources baseline = queue.resources();
            int fds = ProcessResources.openFileDescriptors();
            long heap = ProcessResources.heapAfterGc();

            AtomicInteger appended = new AtomicInteger();
            for (int batch = 0; batch < 5; batch++) {
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < 1_000; i++) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        queue.acquireAppender().writeText("from a short-lived thread");
                        appended.incrementAndGet();
                    }));
                }
                for (Thread thread : threads) {
                    thread.join();
                }
                // Each batch in a new cycle: retention deletes older files, which ended threads' appenders held.
                clock.advance(Duration.ofMinutes(1));
            }
            queue.acquireAppender().writeText("in the newest cycle");

            assertThat(appended).hasValue(5_000);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(queue.resources().openAppenders()).isEqualTo(baseline.openAppenders()));
            assertThat(ProcessResources.openFileDescriptors()).isLessThanOrEqualTo(fds + 32);
            assertThat(ProcessResources.mappingsOfDeletedFiles(dir)).isEmpty();
            assertThat(ProcessResources.heapAfterGc()).isLessThanOrEqualTo(heap + 8 * MIB);
        }
    }

    @Test
    void shouldKeepHeapAndDescriptorsFlatWhenTensOfThousandsOfVirtualThreadsAppendOnceEach() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("warm-up");
            int fds = ProcessResources.openFileDescriptors();
            long heap = ProcessResources.heapAfterGc();

            // At most a few thousand at once: 200,000 writers waiting together would queue for the lock longer than
            // its timeout on a busy machine, which is not what this test is about.
            Semaphore inFlight = new Semaphore(2_000);
            AtomicInteger failed = new AtomicInteger();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < VIRTUAL_THREADS; i++) {
                    int n = i;
                    inFlight.acquireUninterruptibly();
                    executor.submit(() -> {
                        try {
                            queue.acquireAppender().writeText("virtual " + n);
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            }

            assertThat(failed).hasValue(0);
            assertThat(queue.lastIndex() - queue.firstIndex()).isEqualTo(VIRTUAL_THREADS);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(queue.resources().openAppenders()).isLessThanOrEqualTo(1));
            assertThat(ProcessResources.heapAfterGc()).as("heap after %d virtual threads", VIRTUAL_THREADS)
                    .isLessThanOrEqualTo(heap + Math.max(8 * MIB, VIRTUAL_THREADS * BYTES_PER_THREAD));
            assertThat(ProcessResources.openFileDescriptors()).isLessThanOrEqualTo(fds + 32);
        }
    }

    @Test
    void shouldLeaveNothingBehindAfterThousandsOfOpenAppendReadClose() {
        Path queueDir = dir.resolve("q");
        cycle(queueDir);
        int fds = ProcessResources.openFileDescriptors();
        long heap = ProcessResources.heapAfterGc();

        for (int i = 0; i < CYCLES; i++) {
            cycle(queueDir);
        }

        assertThat(ProcessResources.openFileDescriptors()).isEqualTo(fds);
        assertThat(ProcessResources.heapAfterGc()).as("heap after %d cycles", CYCLES)
                .isLessThanOrEqualTo(heap + CYCLES * BYTES_PER_CYCLE);
    }

    private static void cycle(Path queueDir) {
        try (MappedQueue queue = MappedQueue.builder(queueDir).build()) {
            queue.acquireAppender().writeText("x");
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(tailer.readText()).isEqualTo("x");
            }
        }
    }

    @Test
    void shouldCountOpenAppendersTailersAndFiles() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            QueueResources empty = queue.resources();
            assertThat(empty.openAppenders()).isZero();
            assertThat(empty.openTailers()).isZero();

            try (ExcerptAppender appender = queue.createAppender(); ExcerptTailer tailer = queue.createTailer()) {
                appender.writeText("one");
                assertThat(tailer.readText()).isEqualTo("one");
                QueueResources busy = queue.resources();
                assertThat(busy.openAppenders()).isEqualTo(1);
                assertThat(busy.openTailers()).isEqualTo(1);
                assertThat(busy.openFiles()).isEqualTo(1);
                assertThat(busy.mappedBytes()).isPositive();
            }
        }
    }

    @Test
    void shouldReturnToTheBaselineOnceAppendersAndTailersAreClosed() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.createAppender();
            appender.writeText("one");
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("one");
            QueueResources busy = queue.resources();

            appender.close();
            tailer.close();
            QueueResources after = queue.resources();
            assertThat(after.openAppenders()).isZero();
            assertThat(after.openTailers()).isZero();
            assertThat(after.openFiles()).isLessThanOrEqualTo(busy.openFiles());
            assertThat(after.mappedBytes()).isLessThanOrEqualTo(busy.mappedBytes());
        }
    }
}
