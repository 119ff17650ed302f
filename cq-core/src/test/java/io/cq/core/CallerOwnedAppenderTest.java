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

    @Test
    void shouldLetAnAppenderBeHandedFromThreadToThreadAndOrderAllAppendersExcerpts() throws Exception {
        int perTask = 500;
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             ExcerptAppender shared = queue.createAppender()) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> tasks = new ArrayList<>();
                // One appender handed between pool threads one task at a time, beside appenders of their own.
                for (int task = 0; task < 4; task++) {
                    int id = task;
                    tasks.add(pool.submit(() -> {
                        try (ExcerptAppender own = queue.createAppender()) {
                            for (int i = 0; i < perTask; i++) {
                                own.writeText("own-" + id + "-" + i);
                            }
                        }
                    }));
                    tasks.add(pool.submit(() -> {
                        synchronized (shared) {
                            for (int i = 0; i < perTask; i++) {
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

            ExcerptTailer tailer = queue.createTailer();
            int[] nextOwn = new int[4];
            int count = 0;
            for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                count++;
                if (text.startsWith("own-")) {
                    String[] parts = text.split("-");
                    int id = Integer.parseInt(parts[1]);
                    assertThat(Integer.parseInt(parts[2])).isEqualTo(nextOwn[id]++);
                }
            }
            assertThat(count).isEqualTo(8 * perTask);
            assertThat(nextOwn).containsOnly(perTask);
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
