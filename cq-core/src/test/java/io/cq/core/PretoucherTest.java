package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class PretoucherTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00.000Z"));

    private long cycleFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("q"))) {
            return files.filter(f -> f.toString().endsWith(".cq4")).count();
        }
    }

    @Test
    void shouldCreateTheNextCycleFileEarlyWithoutShowingItToReaders() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024).build()) {
            Pretoucher pretoucher = queue.createPretoucher();
            long first = queue.acquireAppender().writeText("now");
            clock.advance(Duration.ofMillis(950));
            pretoucher.execute();
            assertThat(cycleFiles()).isEqualTo(2);
            assertThat(queue.cycles()).hasSize(1);
            assertThat(queue.lastIndex()).isEqualTo(first);
            ExcerptTailer atEnd = queue.createTailer().toEnd();
            long second = queue.acquireAppender().writeText("still this cycle");
            assertThat(atEnd.readText()).isEqualTo("still this cycle");
            clock.advance(Duration.ofMillis(100));
            long third = queue.acquireAppender().writeText("next cycle");
            assertThat(queue.rollCycle().toCycle(third)).isEqualTo(queue.rollCycle().toCycle(second) + 1);
            assertThat(atEnd.readText()).isEqualTo("next cycle");
        }
    }

    @Test
    void shouldLetTailersPassAPretouchedCycleThatNeverStarted() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024).build()) {
            queue.acquireAppender().writeText("before");
            clock.advance(Duration.ofMillis(950));
            queue.createPretoucher().execute();
            clock.advance(Duration.ofSeconds(5));
            queue.acquireAppender().writeText("after a quiet spell");
            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("before");
            assertThat(tailer.readText()).isEqualTo("after a quiet spell");
            assertThat(cycleFiles()).isEqualTo(3);
            assertThat(queue.countExcerpts(0, Long.MAX_VALUE)).isEqualTo(2);
        }
    }

    @Test
    void shouldReadBackEveryExcerptAppendedWithABackgroundPretoucher() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).blockSize(1 << 20).pretouch(true).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 50_000; i++) {
                appender.writeBytes(new byte[64]);
            }
            ExcerptTailer tailer = queue.createTailer();
            int read = 0;
            while (tailer.readBytes() != null) {
                read++;
            }
            assertThat(read).isEqualTo(50_000);
        }
    }
}
