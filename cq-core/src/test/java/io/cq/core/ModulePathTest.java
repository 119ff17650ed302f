package io.cq.core;

import io.cq.modulecheck.ModulePathProbe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** cq-core as a named module: what it exports, and that an application on the module path can use it. */
class ModulePathTest {
    private static final List<String> API_PACKAGES = List.of("io.cq.core", "io.cq.core.codec", "io.cq.core.idle",
            "io.cq.core.message");

    @Test
    void shouldExportOnlyThePublicApiPackages() {
        ModuleDescriptor descriptor = ModuleFinder.of(coreClasses()).find("io.cq.core").orElseThrow().descriptor();

        assertThat(descriptor.exports()).allSatisfy(export -> assertThat(export.isQualified()).isFalse());
        assertThat(descriptor.exports().stream().map(ModuleDescriptor.Exports::source))
                .containsExactlyInAnyOrderElementsOf(API_PACKAGES);
        assertThat(descriptor.packages()).anyMatch(name -> name.startsWith("io.cq.core.internal."));
        assertThat(descriptor.opens()).isEmpty();
    }

    /** One application run on the module path in a child JVM: run once, for all its tests. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AnApplicationOnTheModulePath {
        private List<String> output;

        @BeforeAll
        void runIt(@TempDir Path dir) throws Exception {
            List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
            String modulePath = classPath.stream()
                    .filter(entry -> entry.equals(coreClasses().toString()) || entry.contains("jackson")
                            || entry.contains("lz4-java"))
                    .collect(Collectors.joining(File.pathSeparator));
            String testClasses = classPath.stream().filter(entry -> entry.endsWith("test-classes")).findFirst()
                    .orElseThrow();
            String java = ProcessHandle.current().info().command().orElseThrow();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                    "--enable-native-access=io.cq.core", "--module-path", modulePath, "--add-modules", "io.cq.core",
                    "-cp", testClasses, ModulePathProbe.class.getName(), dir.resolve("queue").toString()));

            output = run(command);
        }

        @Test
        void shouldServeIt() {
            assertThat(output).contains("module=io.cq.core", "exports=" + API_PACKAGES,
                    "text=over the module path", "message=[module]", "document=Greeting[who=record, times=2]");
        }

        @Test
        void shouldKeepTheInternalsClosedToIt() {
            assertThat(output).contains("internal=refused");
        }

        @Test
        void shouldWarnItOfNothing() {
            assertThat(output).noneMatch(line -> line.contains("WARNING"));
        }
    }

    private static Path coreClasses() {
        return Path.of(MappedQueue.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    }

    private static List<String> run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        assertThat(process.exitValue()).as("exit code; output:\n%s", String.join("\n", lines)).isZero();
        return lines;
    }
}
