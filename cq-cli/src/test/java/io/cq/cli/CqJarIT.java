package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged {@code target/cq.jar}, run as {@code java -jar} in its own process against a queue this JVM writes. */
class CqJarIT {
    private static final Path JAR = Path.of("target", "cq.jar");

    @TempDir
    Path dir;

    private static Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(), "-jar",
                JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static String outputOf(Process process) throws Exception {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void shouldRunAsAnExecutableJarWithoutNativeAccessWarnings() throws Exception {
        assertThat(Files.isRegularFile(JAR)).as("the package phase builds " + JAR).isTrue();

        Process version = start("--version");
        String out = outputOf(version);

        assertThat(version.exitValue()).isZero();
        assertThat(out).startsWith("cq ").doesNotContain("WARNING");
    }

    @Test
    void shouldFollowAQueueThatAnotherProcessIsWriting() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("event 0");
            Process tail = start("tail", "-f", "-s", "--limit", "200", queue.toString());
            for (int i = 1; i < 200; i++) {
                appender.writeText("event " + i);
                if (i % 20 == 0) {
                    Thread.sleep(10); // spread the appends over the tail's lifetime
                }
            }
            Process stats = start("stats", queue.toString());
            String statsOut = outputOf(stats);

            List<String> lines = outputOf(tail).lines().toList();

            assertThat(tail.exitValue()).isZero();
            assertThat(lines).hasSize(200);
            for (int i = 0; i < 200; i++) {
                assertThat(lines.get(i)).matches("0x[0-9a-f]+ event " + i);
            }
            assertThat(stats.exitValue()).isZero();
            assertThat(statsOut).contains("excerpts     200");
        }
    }
}
