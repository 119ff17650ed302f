package io.cq.samples.orders;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The executable jar built the way docs/operations.md ("Native access") shows (the entry on maven-jar-plugin,
 * spring-boot-maven-plugin's repackage after it) carries {@code Enable-Native-Access: ALL-UNNAMED}, so
 * {@code java -jar} gives cq native access. Runs after {@code package}, on the jar it made.
 */
class ExecutableJarManifestIT {

    @Test
    void shouldCarryTheNativeAccessEntryIntoTheExecutableJar() throws Exception {
        Path target = Path.of(System.getProperty("basedir", ".")).resolve("target");
        List<Path> executable;
        try (Stream<Path> files = Files.list(target)) {
            executable = files.filter(p -> p.getFileName().toString().endsWith("-exec.jar")).toList();
        }
        assertThat(executable).as("the executable jar in %s", target).hasSize(1);
        try (JarFile jar = new JarFile(executable.getFirst().toFile())) {
            assertThat(jar.getEntry("BOOT-INF/classes/io/cq/samples/orders/OrdersApplication.class"))
                    .as("a Spring Boot executable jar").isNotNull();
            assertThat(jar.getManifest().getMainAttributes().getValue("Enable-Native-Access"))
                    .isEqualTo("ALL-UNNAMED");
        }
    }
}
