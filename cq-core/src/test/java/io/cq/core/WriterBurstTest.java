package io.cq.core;

import io.cq.core.support.BurstWriter;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A burst of virtual threads appending one excerpt each, all at once, in a JVM of its own without native access (as
 * {@code java -jar} runs): with thread-bound appenders, and with appenders each thread makes and closes while no
 * other appender of the process is open. Every append succeeds, the queue holds every excerpt once, and the burst
 * writes at most a few lines (docs/file-format.md, "Waiting in line").
 *
 * <p>20,000 threads once by default; {@code -Pburst} (docs/testing.md) starts 200,000 and repeats each kind 20 times,
 * as {@code -Dcq.burst.threads=N} and {@code -Dcq.burst.runs=N} do.
 */
class WriterBurstTest {
    private static final int THREADS = Integer.getInteger("cq.burst.threads", 20_000);
    private static final int RUNS = Integer.getInteger("cq.burst.runs", 1);
    /** Lines a burst may print besides its result: one warning per episode of long waits, a few at most. */
    private static final int MAX_OTHER_LINES = 10;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} appenders")
    @ValueSource(strings = {"bound", "owned"})
    void shouldAppendEveryExcerptOfABurstOfVirtualThreadsWithoutTimingOut(String appenders) throws Exception {
        for (int run = 0; run < RUNS; run++) {
            Path queueDir = dir.resolve(appenders + "-" + run);
            // A service's JVM, not a test child's: 200,000 virtual threads waiting at once hold their stacks in the
            // heap (some 300 MB), which the children's 256 MiB would spend the run collecting; and both compilers.
            List<String> output = ChildJvm.runToEnd(false, List.of("-Xmx2g", "-XX:TieredStopAtLevel=4"),
                    BurstWriter.class, queueDir.toString(), appenders, Integer.toString(THREADS));

            String result = output.getLast();
            assertThat(result).as("run %d: %s", run, output).startsWith("done 0 ");
            assertThat(output).as("lines besides the result in run %d", run).hasSizeLessThanOrEqualTo(
                    MAX_OTHER_LINES + 1);
            System.out.printf("WriterBurstTest: %d virtual threads, %s appenders, run %d: %s ms%n", THREADS,
                    appenders, run, result.split(" ")[2]);
            assertThat(textsIn(queueDir)).as("excerpts of run %d", run).hasSize(THREADS);
        }
    }

    /** Every excerpt of the queue; fails on one read twice. */
    private static Set<String> textsIn(Path queueDir) {
        Set<String> texts = new HashSet<>();
        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                assertThat(texts.add(text)).as("%s read twice", text).isTrue();
            }
        }
        return texts;
    }
}
