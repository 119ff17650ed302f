package io.cq.spring.boot.alone;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with only cq's starter on its class path (what the build resolves for the starter at runtime, no
 * test dependency) reads its application.yml and logs: the starter brings spring-boot-starter, as Boot requires of
 * every starter.
 */
class StarterAloneTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadApplicationYamlAndLogWithOnlyTheStarterOnTheClassPath() throws Exception {
        Path config = Files.writeString(dir.resolve("application.yml"), """
                cq:
                  base-path: %s
                  queues:
                    orders:
                      roll-cycle: hourly
                """.formatted(dir.resolve("queues")));
        String classPath = String.join(java.io.File.pathSeparator, Path.of("target/classes").toString(),
                Path.of("target/test-classes").toString(), runtimeClassPath());
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process app = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", classPath,
                AloneApplication.class.getName(), "--spring.config.location=file:" + config,
                "--spring.main.web-application-type=none"))
                .redirectErrorStream(true).start();
        String output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(app.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(app.exitValue()).as(output).isZero();
        assertThat(output).contains("queue orders: HOURLY at " + dir.resolve("queues/orders"))
                .contains("Started AloneApplication").doesNotContain("snakeyaml");
    }

    private static String runtimeClassPath() throws IOException {
        return Files.readString(Path.of("target/runtime-classpath.txt")).strip();
    }
}
