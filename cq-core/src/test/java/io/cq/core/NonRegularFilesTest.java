package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** A FIFO (or anything not a regular file) under a cycle file's or the table store's name is refused, not opened. */
class NonRegularFilesTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseAFifoNamedLikeACycleFileInsteadOfHangingOnIt() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("lost with its file");
        }
        Path cycleFile;
        try (Stream<Path> files = Files.list(dir)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        Files.delete(cycleFile);
        assertThat(new ProcessBuilder("mkfifo", cycleFile.toString()).start().waitFor()).isZero();

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
                 ExcerptTailer tailer = queue.createTailer()) {
                assertThatThrownBy(tailer::readText).isInstanceOf(CorruptQueueException.class)
                        .hasMessageContaining(cycleFile.toString()).hasMessageContaining("FIFO");
            }
        });
    }

    @Test
    void shouldRefuseAFifoNamedLikeTheTableStore() throws Exception {
        assertThat(new ProcessBuilder("mkfifo", dir.resolve("metadata.cq4t").toString()).start().waitFor()).isZero();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> MappedQueue.builder(dir).readOnly(true).build())
                        .isInstanceOf(CorruptQueueException.class).hasMessageContaining("FIFO"));
    }
}
