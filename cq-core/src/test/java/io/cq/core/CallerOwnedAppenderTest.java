package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallerOwnedAppenderTest {
    @TempDir
    Path dir;

    @Test
    void shouldGiveANewAppenderOnEachCreate() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender first = queue.createAppender();
            ExcerptAppender second = queue.createAppender();
            assertThat(first).isNotSameAs(second).isNotSameAs(queue.acquireAppender());
            assertThat(first.queue()).isSameAs(queue);
        }
    }

    @Test
    void shouldKeepTheQueueUsableAfterClosingOneAppenderTwice() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender first = queue.createAppender();
            ExcerptAppender second = queue.createAppender();
            long a = first.writeText("a");
            first.close();
            first.close();
            long b = second.writeText("b");

            assertThat(b).isEqualTo(a + 1);
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("a");
            assertThat(tailer.readText()).isEqualTo("b");
        }
    }

    @Test
    void shouldRefuseToAppendThroughAClosedAppender() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender first = queue.createAppender();
            first.writeText("a");
            first.close();
            assertThatThrownBy(() -> first.writeText("c")).isInstanceOf(QueueClosedException.class);
        }
    }

    private static final int PER_TASK = 500;

    /**
     * Four pairs of tasks on a pool of two threads: one writes through an appender of its own, the other through one
     * appender handed between the pool's threads one task at a time; returns the texts the queue then holds.
     */
    private static List<String> writeThroughAHandedAppenderBesideOwnOnes(MappedQueue queue, ExcerptAppender shared)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int task = 0; task < 4; task++) {
                int id = task;
                tasks.add(pool.submit(() -> {
                    try (ExcerptAppender own = queue.createAppender()) {
                        for (int i = 0; i < PER_TASK; i++) {
                            own.writeText("own-" + id + "-" + i);
                        }
                    }
                }));
                tasks.add(pool.submit(() -> {
                    synchronized (shared) {
                        for (int i = 0; i < PER_TASK; i++) {
                            shared.writeText("shared-" + id + "-" + i);
                        }
                    }
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } finally {
            pool.shutdown();
        }
        List<String> texts = new ArrayList<>();
        ExcerptTailer tailer = queue.createTailer();
        for (String text = tailer.readText(); text != null; text = tailer.readText()) {
            texts.add(text);
        }
        return texts;
    }

    @Test
    void shouldLetAnAppenderBeHandedFromThreadToThread() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender shared = queue.createAppender()) {
            List<String> texts = writeThroughAHandedAppenderBesideOwnOnes(queue, shared);

            assertThat(texts).hasSize(8 * PER_TASK);
        }
    }

    @Test
    void shouldKeepEachAppendersOrderBesideOneHandedFromThreadToThread() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender shared = queue.createAppender()) {
            List<String> texts = writeThroughAHandedAppenderBesideOwnOnes(queue, shared);

            int[] nextOwn = new int[4];
            for (String text : texts) {
                if (text.startsWith("own-")) {
                    String[] parts = text.split("-");
                    int id = Integer.parseInt(parts[1]);
                    assertThat(Integer.parseInt(parts[2])).isEqualTo(nextOwn[id]++);
                }
            }
            assertThat(nextOwn).containsOnly(PER_TASK);
        }
    }

    @Test
    void shouldCloseCallerOwnedAppendersWithTheQueue() {
        MappedQueue queue = MappedQueue.builder(dir).build();
        ExcerptAppender appender = queue.createAppender();
        queue.close();
        assertThatThrownBy(() -> appender.writeText("late")).isInstanceOf(QueueClosedException.class);
        appender.close();
    }

    @Test
    void shouldRefuseAppendersOnAReadOnlyQueue() {
        MappedQueue.builder(dir).build().close();
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build()) {
            assertThatThrownBy(queue::createAppender).isInstanceOf(QueueException.class)
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void shouldRefuseAtOnceASecondAppenderOnTheThreadThatHoldsTheWriteLock() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender first = queue.createAppender();
             ExcerptAppender second = queue.createAppender()) {
            try (WriteContext context = first.writingDocument()) {
                context.bytes().writeInt(1);
                assertThatThrownBy(() -> second.writeText("would wait for itself"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("this thread already holds the queue's write lock");
            }
            second.writeText("after the first context closed");
            assertThat(queue.lastIndex() - queue.firstIndex()).isEqualTo(1);
        }
    }
}
