package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.TextAppendingProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The newest cycle file shrunk by its last writer's close, then grown again by the next writer, each in a JVM of
 * its own, while this JVM reads it throughout with mappings made before and after each change
 * (docs/file-format.md, "Reserving and shrinking").
 */
class ShrinkAcrossProcessesTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadEverythingWhileOtherProcessesShrinkAndGrowTheNewestFile() throws Exception {
        Path queueDir = dir.resolve("q");
        append("first", 1_000);
        long shrunk = newestFileSize(queueDir);

        try (MappedQueue reader = MappedQueue.builder(queueDir).readOnly(true).build();
             ExcerptTailer tailer = reader.createTailer()) {
            for (int i = 0; i < 1_000; i++) {
                assertThat(tailer.readText()).isEqualTo("first-" + i);
            }
            assertThat(tailer.readText()).as("the free word after the last record is in the shrunk file").isNull();

            append("second", 50_000);
            for (int i = 0; i < 50_000; i++) {
                assertThat(tailer.readText()).isEqualTo("second-" + i);
            }
            assertThat(newestFileSize(queueDir)).as("grown again, then shrunk by the second writer's close")
                    .isGreaterThan(shrunk);

            append("third", 10);
            for (int i = 0; i < 10; i++) {
                assertThat(tailer.readText()).isEqualTo("third-" + i);
            }
            assertThat(tailer.readText()).isNull();
            assertThat(reader.verify().findings()).isEmpty();
            ExcerptTailer fresh = reader.createTailer();
            fresh.moveToIndex(reader.lastIndex());
            assertThat(fresh.readText()).isEqualTo("third-9");
        }
    }

    private void append(String prefix, int count) throws Exception {
        try (ChildJvm child = ChildJvm.start(TextAppendingProcess.class, dir.resolve("q").toString(), prefix,
                String.valueOf(count))) {
            child.awaitLine("closed", 60, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
        }
    }

    private static long newestFileSize(Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            Path newest = files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList().getLast();
            return Files.size(newest);
        }
    }
}
