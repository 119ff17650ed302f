package io.cq.benchmarks.startup;

import io.cq.benchmarks.BenchmarkSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each start-up process runs on its own library's class path, so neither library pays for searching the other's
 * JARs (or the test tools'); every entry of it is a JAR, as deployed; and that class path is enough to open a queue
 * and append, in a real child JVM.
 */
class StartupHarnessTest {
    @TempDir
    Path dir;

    @Test
    void shouldGiveEachLibraryOnlyItsOwnEntriesBesideTheBenchmarksClasses() {
        List<String> cq = entries("cq");
        List<String> chronicle = entries("chronicle");
        List<String> none = entries(StartupHarness.NO_QUEUE);

        assertThat(none).hasSize(1);
        assertThat(cq.getFirst()).isEqualTo(none.getFirst());
        assertThat(chronicle.getFirst()).isEqualTo(none.getFirst());
        assertThat(cq).anyMatch(entry -> entry.contains("cq-core")).noneMatch(entry -> entry.contains("openhft"))
                .noneMatch(entry -> entry.contains("junit")).noneMatch(entry -> entry.contains("jackson"));
        assertThat(chronicle).anyMatch(entry -> entry.contains("chronicle-queue"))
                .anyMatch(entry -> entry.contains("chronicle-core")).anyMatch(entry -> entry.contains("slf4j"))
                .noneMatch(entry -> entry.contains("cq-core")).noneMatch(entry -> entry.contains("junit"));
        assertThat(System.getProperty("java.class.path").split(File.pathSeparator).length)
                .as("the whole class path is much longer").isGreaterThan(cq.size() + chronicle.size());
    }

    @Test
    void shouldPackTheBenchmarksClassesIntoAJarSharedByEveryLibrarysClassPath() throws Exception {
        Path work = dir.resolve("work");
        Files.createDirectories(work);
        List<String> cq = Arrays.asList(StartupHarness.applicationClassPath("cq", work).split(File.pathSeparator));
        List<String> chronicle = Arrays.asList(StartupHarness.applicationClassPath("chronicle", work)
                .split(File.pathSeparator));

        assertThat(cq).hasSameSizeAs(entries("cq")).allMatch(entry -> entry.endsWith(".jar")
                && Files.isRegularFile(Path.of(entry)));
        assertThat(chronicle).hasSameSizeAs(entries("chronicle")).allMatch(entry -> entry.endsWith(".jar")
                && Files.isRegularFile(Path.of(entry)));
        assertThat(chronicle.getFirst()).isEqualTo(cq.getFirst()).startsWith(work.toString());
        assertThat(chronicle.subList(1, chronicle.size())).as("the library's own JARs, unchanged and in order")
                .isEqualTo(entries("chronicle").subList(1, chronicle.size()));
        assertThat(StartupHarness.applicationClassPath("cq", work)).as("packed once")
                .isEqualTo(String.join(File.pathSeparator, cq));
        try (JarFile application = new JarFile(cq.getFirst())) {
            assertThat(application.getEntry(FirstExcerpt.class.getName().replace('.', '/') + ".class")).isNotNull();
        }
    }

    @Test
    void shouldOpenAQueueAndAppendOnEachLibrarysOwnClassPath() throws Exception {
        List<String> jvmArgs = BenchmarkSuite.forkJvmArgs();
        Path work = dir.resolve("work");
        Files.createDirectories(work);
        for (String implementation : List.of("cq", "chronicle")) {
            StartupHarness.Result result = StartupHarness.run(implementation, dir.resolve(implementation), jvmArgs,
                    StartupHarness.applicationClassPath(implementation, work));

            assertThat(result.mainToFirstExcerpt()).as(implementation).isPositive();
            assertThat(result.processToFirstExcerpt()).as(implementation).isGreaterThan(result.mainToFirstExcerpt());
        }
    }

    private static List<String> entries(String implementation) {
        return Arrays.asList(StartupHarness.classPathOf(implementation).split(File.pathSeparator));
    }
}
