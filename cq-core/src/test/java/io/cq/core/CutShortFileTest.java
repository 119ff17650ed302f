package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The newest cycle file cut short in the middle of its last excerpt (a copy stopped early, a disk that lost its
 * tail): appending is refused, and the file is left as it is, instead of being lengthened with zeros that would
 * turn the cut excerpt into a whole one full of NUL bytes for every reader.
 */
class CutShortFileTest {
    @TempDir
    Path dir;

    private record Cut(Path cycleFile, long cutAt) {
    }

    /** Appends 100 excerpts, closes the queue and cuts its file into the last one. */
    private Cut cutIntoTheLastExcerpt() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 100; i++) {
                appender.writeText("excerpt " + i + " " + "z".repeat(40));
            }
        }
        Path cycleFile;
        try (Stream<Path> files = Files.list(dir)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(cycleFile, StandardOpenOption.WRITE)) {
            // The closed file ends with the free header word after the last excerpt: cut into that excerpt.
            long cutAt = channel.size() - 20;
            channel.truncate(cutAt);
            return new Cut(cycleFile, cutAt);
        }
    }

    @Test
    void shouldRefuseToAppendAfterAnExcerptCutByTheEndOfTheFile() throws IOException {
        Cut cut = cutIntoTheLastExcerpt();

        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            assertThatThrownBy(() -> appender.writeText("after the cut"))
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(cut.cycleFile().getFileName().toString())
                    .hasMessageContaining("cut short");
        }
    }

    @Test
    void shouldLeaveAFileCutShortAsItIsWhenRefusingToAppend() throws IOException {
        Cut cut = cutIntoTheLastExcerpt();

        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            assertThatThrownBy(() -> appender.writeText("after the cut")).isInstanceOf(CorruptQueueException.class);
            assertThat(Files.size(cut.cycleFile())).as("the damaged file is not lengthened").isEqualTo(cut.cutAt());
        }
    }

    @Test
    void shouldReadUpToTheExcerptCutByTheEndOfTheFile() throws IOException {
        cutIntoTheLastExcerpt();

        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 99; i++) {
                assertThat(tailer.readText()).startsWith("excerpt " + i + " ");
            }
            assertThatThrownBy(tailer::readText).isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining("cut short");
        }
    }
}
