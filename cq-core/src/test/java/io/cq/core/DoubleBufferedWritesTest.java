package io.cq.core;

import io.cq.core.support.AppendingProcess;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.Excerpts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Double-buffered writes (MappedQueueBuilder.doubleBuffer): a writer that finds the lock taken composes its excerpt
 * in a buffer of its own and copies it in under the lock on close.
 */
class DoubleBufferedWritesTest {
    @TempDir
    Path dir;

    private MappedQueue open() {
        return MappedQueue.builder(dir.resolve("queue")).blockSize(1 << 20).doubleBuffer(true).build();
    }

    @Test
    void shouldComposeAnExcerptWhileAnotherWriterHoldsTheLockAndPublishItAfterTheHolders() throws Exception {
        byte[] large = new byte[10_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 13);
        }
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            held.bytes().writeUtf8("first");
            CountDownLatch composed = new CountDownLatch(1);
            CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
                try (ExcerptAppender buffered = queue.createAppender()) {
                    try (WriteContext dc = buffered.writingDocument()) {
                        // Larger than the buffer's first size, so it grows while the other writer holds the lock.
                        dc.bytes().writeUtf8("second").writeInt(large.length).writeBytes(large);
                        composed.countDown();
                    }
                    return buffered.lastIndexAppended();
                }
            });
            assertThat(composed.await(10, TimeUnit.SECONDS)).as("composed without waiting for the lock").isTrue();
            assertThat(second).isNotDone();
            assertThat(queue.lastIndex()).as("nothing published while the first writer holds the lock").isEqualTo(-1);
            held.close();
            long secondIndex = second.get(10, TimeUnit.SECONDS);
            assertThat(secondIndex).isEqualTo(holder.lastIndexAppended() + 1);

            try (ExcerptTailer tailer = queue.createTailer()) {
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.bytes().readUtf8()).isEqualTo("first");
                }
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.index()).isEqualTo(secondIndex);
                    assertThat(dc.bytes().readUtf8()).isEqualTo("second");
                    byte[] read = new byte[dc.bytes().readInt()];
                    dc.bytes().readBytes(read);
                    assertThat(read).isEqualTo(large);
                    assertThat(dc.bytes().remaining()).isZero();
                }
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldWriteInPlaceWhenTheLockIsFree() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender()) {
            try (WriteContext dc = appender.writingDocument()) {
                long index = dc.index();
                dc.bytes().writeLong(42);
                assertThat(index).isEqualTo(queue.rollCycle().toIndex(queue.currentCycle(), 0));
            }
            assertThat(appender.writeDocument(bytes -> bytes.writeLong(43))).isEqualTo(appender.lastIndexAppended());
            try (ExcerptTailer tailer = queue.createTailer()) {
                assertThat(readLong(tailer)).isEqualTo(42);
                assertThat(readLong(tailer)).isEqualTo(43);
            }
        }
    }

    /**
     * While {@code holder} holds the lock, another appender buffers an int, asks its context for its index, writes
     * an int and the index, and closes; returns that index and the appender's last index appended.
     */
    private static CompletableFuture<long[]> askForTheIndexWhileBuffering(MappedQueue queue, CountDownLatch buffering) {
        return CompletableFuture.supplyAsync(() -> {
            try (ExcerptAppender buffered = queue.createAppender();
                 WriteContext dc = buffered.writingDocument()) {
                dc.bytes().writeInt(1);
                buffering.countDown();
                long index = dc.index();
                dc.bytes().writeInt(2).writeLong(index);
                dc.close();
                return new long[] {index, buffered.lastIndexAppended()};
            }
        });
    }

    @Test
    void shouldTakeTheLockWhenABufferedContextAsksForItsIndex() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            CountDownLatch buffering = new CountDownLatch(1);
            CompletableFuture<long[]> second = askForTheIndexWhileBuffering(queue, buffering);
            assertThat(buffering.await(10, TimeUnit.SECONDS)).isTrue();
            await().during(200, TimeUnit.MILLISECONDS).atMost(2, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(second).as("index() waits for the lock").isNotDone());
            held.bytes().writeInt(0);
            held.close();
            long[] indexes = second.get(10, TimeUnit.SECONDS);
            assertThat(indexes[0]).isEqualTo(holder.lastIndexAppended() + 1).isEqualTo(indexes[1]);
        }
    }

    @Test
    void shouldGoOnInPlaceOnceABufferedContextHasItsIndex() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            CountDownLatch buffering = new CountDownLatch(1);
            CompletableFuture<long[]> second = askForTheIndexWhileBuffering(queue, buffering);
            assertThat(buffering.await(10, TimeUnit.SECONDS)).isTrue();
            held.bytes().writeInt(0);
            held.close();
            long[] indexes = second.get(10, TimeUnit.SECONDS);
            try (ExcerptTailer tailer = queue.createTailer()) {
                tailer.moveToIndex(indexes[0]);
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.bytes().readInt()).isEqualTo(1);
                    assertThat(dc.bytes().readInt()).isEqualTo(2);
                    assertThat(dc.bytes().readLong()).isEqualTo(indexes[0]);
                }
            }
        }
    }

    /**
     * While {@code holder} holds the lock, another appender rolls back an excerpt, fails in its lambda and writes
     * past its end; returns what the last attempt threw, once all three returned.
     */
    private static CompletableFuture<Throwable> failBufferedExcerptsBehind(MappedQueue queue) {
        return CompletableFuture.supplyAsync(() -> {
            try (ExcerptAppender buffered = queue.createAppender()) {
                try (WriteContext dc = buffered.writingDocument()) {
                    dc.bytes().writeUtf8("rolled back");
                    dc.rollbackOnClose();
                }
                try {
                    buffered.writeDocument(bytes -> {
                        bytes.writeUtf8("half");
                        throw new IllegalStateException("the writer failed");
                    });
                } catch (IllegalStateException expected) {
                    // The lambda's failure, as thrown: checked by what the queue holds.
                }
                try {
                    buffered.writeDocument(bytes -> bytes.position(bytes.remaining() + 1));
                    return null;
                } catch (RuntimeException tooLarge) {
                    return tooLarge;
                }
            }
        });
    }

    @Test
    void shouldNeverWaitForTheLockWhenABufferedExcerptIsRolledBackOrFails() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            try (WriteContext held = holder.writingDocument()) {
                // All three return while the lock is still held: a buffered excerpt that is not published needs no
                // lock.
                assertThat(failBufferedExcerptsBehind(queue).get(10, TimeUnit.SECONDS))
                        .isInstanceOf(IndexOutOfBoundsException.class);
                held.bytes().writeUtf8("only");
            }
        }
    }

    @Test
    void shouldPublishNothingWhenABufferedExcerptIsRolledBackOrFails() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            failBufferedExcerptsBehind(queue).get(10, TimeUnit.SECONDS);
            held.bytes().writeUtf8("only");
            held.close();
            try (ExcerptAppender appender = queue.createAppender()) {
                appender.writeText("after");
            }
            try (ExcerptTailer tailer = queue.createTailer()) {
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.bytes().readUtf8()).isEqualTo("only");
                }
                assertThat(tailer.readText()).isEqualTo("after");
                assertThat(tailer.readText()).isNull();
            }
        }
    }

    @Test
    void shouldDiscardABufferedExcerptWhoseWriteFailedEvenAfterItAskedForItsIndex() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            CountDownLatch failed = new CountDownLatch(1);
            CompletableFuture<Long> buffered = CompletableFuture.supplyAsync(() -> {
                try (ExcerptAppender appender = queue.createAppender(); WriteContext dc = appender.writingDocument()) {
                    dc.bytes().writeLong(7);
                    try {
                        dc.bytes().writeBytes(new byte[(1 << 20) / 4 + 1]);
                    } catch (ExcerptTooLargeException expected) {
                        failed.countDown();
                    }
                    return dc.index(); // takes the lock; the failed excerpt must still not be published
                }
            });
            assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
            held.bytes().writeLong(1);
            held.close();
            buffered.get(10, TimeUnit.SECONDS);
            assertThat(queue.lastIndex()).isEqualTo(holder.lastIndexAppended());
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldTellTheOwnerThatItsBufferedExcerptWasLostWhenAnotherThreadClosedTheAppender() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            ExcerptAppender appender = queue.createAppender();
            CountDownLatch composing = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            CompletableFuture<Void> owner = CompletableFuture.runAsync(() -> {
                WriteContext dc = appender.writingDocument();
                dc.bytes().writeLong(9);
                composing.countDown();
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                dc.close();
            });
            assertThat(composing.await(10, TimeUnit.SECONDS)).isTrue();
            appender.close();
            closed.countDown();
            assertThatThrownBy(() -> owner.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(QueueClosedException.class)
                    .hasMessageContaining("nothing was published");
            held.close();
            assertThat(queue.lastIndex()).isEqualTo(holder.lastIndexAppended());
        }
    }

    @Test
    void shouldRefuseABufferedExcerptLargerThanTheQueueAllows() throws Exception {
        try (MappedQueue queue = open(); ExcerptAppender holder = queue.createAppender()) {
            WriteContext held = holder.writingDocument();
            Future<?> tooLarge = CompletableFuture.runAsync(() -> {
                try (ExcerptAppender buffered = queue.createAppender()) {
                    buffered.writeDocument(bytes -> bytes.writeBytes(new byte[(1 << 20) / 4 + 1]));
                }
            });
            assertThatThrownBy(() -> tooLarge.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(
                    ExcerptTooLargeException.class);
            held.close();
            assertThat(queue.lastIndex()).isEqualTo(holder.lastIndexAppended());
        }
    }

    private static final int FIELD_BY_FIELD_THREADS = 4;
    private static final int FIELD_BY_FIELD_EXCERPTS = 20_000;

    /** Four threads, each with an appender of its own, write 20,000 excerpts each, one field at a time. */
    private static void writeFieldByFieldFromFourThreads(MappedQueue queue) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(FIELD_BY_FIELD_THREADS);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < FIELD_BY_FIELD_THREADS; t++) {
            int writer = t;
            writers.add(pool.submit(() -> {
                try (ExcerptAppender appender = queue.createAppender()) {
                    for (int sequence = 0; sequence < FIELD_BY_FIELD_EXCERPTS; sequence++) {
                        try (WriteContext dc = appender.writingDocument()) {
                            Excerpts.writeFirstHalf(dc.bytes(), writer, sequence);
                            Excerpts.writeSecondHalf(dc.bytes(), writer, sequence);
                        }
                    }
                }
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
    }

    @Test
    void shouldKeepEveryExcerptWholeWithFourThreadsWritingFieldByField() throws Exception {
        try (MappedQueue queue = open()) {
            writeFieldByFieldFromFourThreads(queue);
            Map<Integer, Integer> count = new HashMap<>();
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int read = 0; read < FIELD_BY_FIELD_THREADS * FIELD_BY_FIELD_EXCERPTS; read++) {
                    try (ReadContext dc = tailer.readingDocument()) {
                        assertThat(dc.isPresent()).isTrue();
                        long id = Excerpts.check(dc.bytes(), dc.index());
                        count.merge((int) (id >>> 32), 1, Integer::sum);
                    }
                }
                assertThat(tailer.readBytes()).isNull();
            }
            assertThat(count).hasSize(FIELD_BY_FIELD_THREADS)
                    .allSatisfy((writer, excerpts) -> assertThat(excerpts).isEqualTo(FIELD_BY_FIELD_EXCERPTS));
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldKeepEachWritersOrderWithFourThreadsWritingFieldByField() throws Exception {
        try (MappedQueue queue = open()) {
            writeFieldByFieldFromFourThreads(queue);
            Map<Integer, Integer> next = new HashMap<>();
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int read = 0; read < FIELD_BY_FIELD_THREADS * FIELD_BY_FIELD_EXCERPTS; read++) {
                    try (ReadContext dc = tailer.readingDocument()) {
                        long id = Excerpts.check(dc.bytes(), dc.index());
                        int writer = (int) (id >>> 32);
                        assertThat((int) id).as("writer %d's order", writer).isEqualTo(next.getOrDefault(writer, 0));
                        next.merge(writer, 1, Integer::sum);
                    }
                }
            }
        }
    }

    @Test
    void shouldAccountForEveryExcerptWhenTwoDoubleBufferedJvmsAppendAtOnce() throws Exception {
        int perWriter = 30_000;
        Path queueDir = dir.resolve("queue");
        Path go = dir.resolve("go");
        try (MappedQueue queue = open();
             ChildJvm first = ChildJvm.start(AppendingProcess.class, queueDir.toString(), "1",
                     Integer.toString(perWriter), go.toString(), "double-buffer");
             // Without native access, as a plain java -jar runs: blocks are then reserved by writing zeros.
             ChildJvm second = ChildJvm.start(false, List.of(), AppendingProcess.class, queueDir.toString(), "2",
                     Integer.toString(perWriter), go.toString(), "double-buffer")) {
            first.awaitLine("ready", 60, TimeUnit.SECONDS);
            second.awaitLine("ready", 60, TimeUnit.SECONDS);
            Files.createFile(go);
            first.awaitLine("done", 120, TimeUnit.SECONDS);
            second.awaitLine("done", 120, TimeUnit.SECONDS);
            Map<Integer, Integer> next = new HashMap<>();
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int read = 0; read < 2 * perWriter; read++) {
                    try (ReadContext dc = tailer.readingDocument()) {
                        assertThat(dc.isPresent()).isTrue();
                        int writer = dc.bytes().readInt();
                        int sequence = dc.bytes().readInt();
                        assertThat(sequence).isEqualTo(next.getOrDefault(writer, 0));
                        assertThat(dc.bytes().readLong()).isEqualTo(AppendingProcess.checksum(writer, sequence));
                        next.merge(writer, 1, Integer::sum);
                    }
                }
                assertThat(tailer.readBytes()).isNull();
            }
            assertThat(next).containsOnlyKeys(1, 2).containsValues(perWriter, perWriter);
        }
    }

    private static long readLong(ExcerptTailer tailer) {
        try (ReadContext dc = tailer.readingDocument()) {
            assertThat(dc.isPresent()).isTrue();
            return dc.bytes().readLong();
        }
    }
}
