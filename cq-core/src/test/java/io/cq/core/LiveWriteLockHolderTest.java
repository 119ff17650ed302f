package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.LockHoldingWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A writer in another JVM holds the write lock while this JVM makes more appenders (each with a token of its own)
 * than a 24-bit token could tell apart: the live holder is waited for, never taken over; once it is killed with
 * kill -9 in the middle of an excerpt, the next writer goes on within a second, and nothing is lost or torn.
 */
class LiveWriteLockHolderTest {
    /** More tokens than 24 bits hold, so that any 24-bit part of a token has come round again. */
    private static final long TOKENS = (1L << 24) + 1_000;

    @TempDir
    Path dir;

    /**
     * The holder runs with and without native access: a plain {@code java -jar} must be as safe. The two runs, each
     * with its own queue and holder JVM, go side by side: the 2^24 appenders keep a core busy for seconds.
     */
    @ParameterizedTest(name = "holder with native access: {0}")
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(booleans = {false, true})
    void shouldNeverTakeOverALiveHolderAfterMoreThan2To24TokensAndGoOnWithinASecondAfterItsKill(boolean nativeAccess)
            throws Exception {
        Path queueDir = dir.resolve("q");
        try (MappedQueue queue = MappedQueue.builder(queueDir).writeLockTimeout(Duration.ofMillis(1_500)).build();
             ChildJvm holder = ChildJvm.start(nativeAccess, List.of(), LockHoldingWriter.class,
                     queueDir.toString())) {
            holder.awaitLine("ready", 60, TimeUnit.SECONDS);
            holder.send("hold");
            holder.awaitLine("holding", 30, TimeUnit.SECONDS);

            for (long i = 0; i < TOKENS; i++) {
                queue.createAppender().close();
            }
            ExcerptAppender waiter = queue.createAppender();
            assertThatThrownBy(() -> waiter.writeText("lost if the holder were taken over"))
                    .isInstanceOf(WriteLockTimeoutException.class)
                    .hasMessageContaining("pid " + holder.pid())
                    .hasMessageContaining("not taken over");

            holder.send("finish");
            holder.awaitLine("finished", 30, TimeUnit.SECONDS);
            waiter.writeText("after the holder finished");

            holder.send("hold");
            holder.awaitLine("holding", 30, TimeUnit.SECONDS);
            holder.kill();
            long started = System.nanoTime();
            waiter.writeText("after the holder was killed");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));

            List<String> texts = new ArrayList<>();
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                    texts.add(text);
                }
            }
            assertThat(texts).containsExactly("held-0 complete", "after the holder finished",
                    "after the holder was killed");
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
        }
    }
}
