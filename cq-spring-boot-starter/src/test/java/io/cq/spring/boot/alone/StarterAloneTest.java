package io.cq.spring.boot.alone;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
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
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StarterAloneTest {
    /** A temporary directory for the class, made for its {@code @BeforeAll}. */
    Path dir;

    private Process app;
    private String output;

    /** One run of the application for every test. */
    @BeforeAll
    void runWithOnlyTheStarterOnTheClassPath(@TempDir Path dir) throws Exception {
        this.dir = dir;
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
        app = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", classPath,
                AloneApplication.class.getName(), "--spring.config.location=file:" + config,
                "--spring.main.web-application-type=none"))
                .redirectErrorStream(true).start();
        output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        app.waitFor(60, TimeUnit.SECONDS);
    }

    @Test
    void shouldRunToItsEndWithOnlyTheStarterOnTheClassPath() {
        assertThat(app.isAlive()).as("ended within 60 s").isFalse();
        assertThat(app.exitValue()).as(output).isZero();
    }

    @Test
    void shouldReadApplicationYamlWithOnlyTheStarterOnTheClassPath() {
        assertThat(output).contains("queue orders: HOURLY at " + dir.resolve("queues/orders"))
                .doesNotContain("snakeyaml");
    }

    @Test
    void shouldLogWithOnlyTheStarterOnTheClassPath() {
        assertThat(output).contains("Started AloneApplication");
    }

    private static String runtimeClassPath() throws IOException {
        return Files.readString(Path.of("target/runtime-classpath.txt")).strip();
    }
}
