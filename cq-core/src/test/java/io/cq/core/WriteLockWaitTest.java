package io.cq.core;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Waiting for the write lock held by a live appender of this JVM: interruptible, bounded by the queue's
 * write-lock timeout with an error naming the holder, cheap while it lasts; and a release by an appender that no
 * longer holds the lock changes nothing.
 */
class WriteLockWaitTest {
    @TempDir
    Path dir;

    /**
     * Tokens are unique per queue, not per JVM: the first appenders of two new queues of one JVM get the same one.
     * Closing the other queue's appender must not make this queue's live holder look dead to its waiters.
     */
    @Test
    void shouldNeverTakeOverALiveHolderWhenAnotherQueueOfTheJvmClosesAnAppenderWithTheSameToken() throws Exception {
        try (MappedQueue first = MappedQueue.builder(dir.resolve("first")).writeLockCheckInterval(Duration.ofMillis(50))
                .writeLockTimeout(Duration.ofMillis(600)).build();
             MappedQueue second = MappedQueue.builder(dir.resolve("second")).build();
             ExcerptAppender holder = first.createAppender()) {
            second.createAppender().close();
            try (WriteContext held = holder.writingDocument()) {
                held.bytes().writeInt(1);
                CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                    try (ExcerptAppender appender = first.createAppender()) {
                        return appender.writeText("waiter");
                    }
                });
                assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(WriteLockTimeoutException.class);
            }
            assertThat(first.lastIndex()).isEqualTo(holder.lastIndexAppended());
            assertThat(first.verify().isIntact()).isTrue();
        }
    }

    /** One waiter interrupted while it waits for a live holder: interrupted once, for all its tests. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AnInterruptedWaiter {
        private Path queueDir;
        private Throwable thrown;
        private Boolean interruptedAfter;
        private Duration leftAfter;

        @BeforeAll
        void interruptTheWaiter(@TempDir Path tempDir) throws Exception {
            queueDir = tempDir;
            try (MappedQueue queue = MappedQueue.builder(queueDir).build();
                 ExcerptAppender holder = queue.createAppender();
                 ExcerptAppender waiter = queue.createAppender()) {
                WriteContext held = holder.writingDocument();
                AtomicReference<Throwable> caught = new AtomicReference<>();
                AtomicLong leftAt = new AtomicLong();
                AtomicReference<Boolean> interrupted = new AtomicReference<>();
                Thread waiting = Thread.ofPlatform().start(() -> {
                    try {
                        waiter.writeText("never");
                    } catch (Throwable e) {
                        leftAt.set(System.nanoTime());
                        caught.set(e);
                        interrupted.set(Thread.currentThread().isInterrupted());
                    }
                });
                // Parked between attempts, where an interrupt used to be swallowed.
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> waiting.getState() == Thread.State.TIMED_WAITING);
                long interruptedAt = System.nanoTime();
                waiting.interrupt();
                waiting.join(5_000);
                thrown = caught.get();
                interruptedAfter = interrupted.get();
                leftAfter = Duration.ofNanos(leftAt.get() - interruptedAt);
                held.bytes().writeLong(42);
                held.close();
            }
        }

        @Test
        void shouldLeaveTheWaitWithinAHundredMilliseconds() {
            assertThat(thrown).isInstanceOf(QueueInterruptedException.class)
                    .hasMessageContaining("nothing was written");
            assertThat(leftAfter).isLessThan(Duration.ofMillis(100));
        }

        @Test
        void shouldKeepTheInterruptStatus() {
            assertThat(interruptedAfter).isTrue();
        }

        @Test
        void shouldWriteOnlyTheHoldersExcerpt() {
            try (MappedQueue queue = MappedQueue.builder(queueDir).build();
                 ExcerptTailer tailer = queue.createTailer()) {
                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(context.bytes().readLong()).isEqualTo(42);
                }
                assertThat(tailer.readBytes()).as("the interrupted waiter wrote nothing").isNull();
            }
        }
    }

    /** One waiter that waits out a timeout of 2 s behind a live holder: waited once, for all its tests. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AWaiterThatTimesOut {
        private Path queueDir;
        private Throwable thrown;
        private long cpuNanos;
        private long lastIndex;
        private long firstIndex;

        @BeforeAll
        void waitOutTheTimeout(@TempDir Path tempDir) throws Exception {
            queueDir = tempDir;
            try (MappedQueue queue = MappedQueue.builder(queueDir).writeLockTimeout(Duration.ofSeconds(2)).build();
                 ExcerptAppender holder = queue.createAppender();
                 ExcerptAppender waiter = queue.createAppender()) {
                WriteContext held = holder.writingDocument();
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                CompletableFuture<Long> cpu = new CompletableFuture<>();
                AtomicReference<Throwable> caught = new AtomicReference<>();
                Thread waiting = Thread.ofPlatform().start(() -> {
                    long before = threads.getCurrentThreadCpuTime();
                    try {
                        waiter.writeText("never");
                    } catch (Throwable e) {
                        caught.set(e);
                    }
                    cpu.complete(threads.getCurrentThreadCpuTime() - before);
                });
                waiting.join(10_000);
                held.close();
                thrown = caught.get();
                cpuNanos = cpu.get(1, TimeUnit.SECONDS);
                lastIndex = queue.lastIndex();
                firstIndex = queue.firstIndex();
            }
        }

        @Test
        void shouldGiveUpAfterTheTimeout() {
            assertThat(thrown).isInstanceOf(WriteLockTimeoutException.class);
            assertThat(((WriteLockTimeoutException) thrown).waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }

        @Test
        void shouldNameTheLiveHolder() {
            assertThat(thrown).isInstanceOf(WriteLockTimeoutException.class)
                    .hasMessageContaining("pid " + ProcessHandle.current().pid());
            assertThat(((WriteLockTimeoutException) thrown).directory()).isEqualTo(queueDir);
        }

        @Test
        void shouldUseLittleCpuWhileWaiting() {
            assertThat(Duration.ofNanos(cpuNanos)).as("CPU used by a waiter in 2 s")
                    .isLessThanOrEqualTo(Duration.ofMillis(400));
        }

        @Test
        void shouldWriteNothingForTheWaiter() {
            assertThat(lastIndex).as("only the holder's excerpt").isEqualTo(firstIndex);
        }
    }

    @Test
    void shouldChangeNothingWhenAnAppenderReleasesALockThatWasTakenOverFromIt() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).writeLockCheckInterval(Duration.ofMillis(50))
                .writeLockTimeout(Duration.ofMillis(500)).build();
             ExcerptAppender stale = queue.createAppender();
             ExcerptAppender successor = queue.createAppender();
             ExcerptAppender third = queue.createAppender()) {
            // The first holder's thread ends inside an excerpt: it is taken for dead, and its lock taken over.
            AtomicReference<WriteContext> abandoned = new AtomicReference<>();
            Thread ending = Thread.ofPlatform().start(() -> abandoned.set(stale.writingDocument()));
            ending.join();
            WriteContext successorsExcerpt = successor.writingDocument();
            successorsExcerpt.bytes().writeLong(7);

            // The stale holder's release must not free the successor's lock, nor publish over its record.
            assertThatThrownBy(abandoned.get()::close).isInstanceOf(QueueException.class)
                    .hasMessageContaining("taken over").hasMessageContaining("discarded");
            CountDownLatch refused = new CountDownLatch(1);
            Thread.ofPlatform().start(() -> {
                try {
                    third.writeText("must wait for the successor");
                } catch (WriteLockTimeoutException e) {
                    refused.countDown();
                }
            }).join();
            assertThat(refused.getCount()).as("third appender timed out behind the successor").isZero();

            successorsExcerpt.close();
            third.writeText("after the successor");
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            try (ReadContext context = tailer.readingDocument()) {
                assertThat(context.bytes().readLong()).isEqualTo(7);
            }
            assertThat(tailer.readText()).isEqualTo("after the successor");
            assertThat(tailer.readBytes()).isNull();
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }
}
