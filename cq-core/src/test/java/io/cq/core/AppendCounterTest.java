package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AppendCounterTest {
    @TempDir
    Path dir;

    @Test
    void shouldCountPublishedExcerptsAndBytesFromEveryAppenderButNotDiscardedOnes() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThat(queue.appendedExcerpts()).isZero();
            queue.acquireAppender().writeText("abc");
            try (WriteContext discarded = queue.acquireAppender().writingDocument()) {
                discarded.bytes().writeLong(1);
                discarded.rollbackOnClose();
            }
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 1_000; i++) {
                        queue.acquireAppender().writeBytes(new byte[10]);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(queue.appendedExcerpts()).isEqualTo(4_001);
            assertThat(queue.appendedBytes()).isEqualTo(3 + 4_000 * 10);
        }
    }

    @Test
    void shouldStartFromZeroWhenAQueueIsOpenedAgain() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("abc");
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThat(queue.appendedExcerpts()).isZero();
            assertThat(queue.lastIndex()).isNotNegative();
        }
    }
}
