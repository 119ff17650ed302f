package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.FirstAppendProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a new process loads of cq on its way to its first excerpt: each class is about 0.15 ms of it when loaded from
 * a JAR (docs/notes/performance-journal.md, "2026-11-27, noon"). Classes needed only when something fails, or for
 * features the first excerpt does not use, stay unloaded; the rest stay within a budget that a change adding to it
 * has to argue for there.
 */
class StartupClassesTest {
    /**
     * cq's classes loaded before the first excerpt, test support aside: 61 on 2026-11-27 after the noon changes, 73
     * since cq-core was split by job and its API finds the engine by name, 77 since CycleFiles' listing and directory
     * moved into CycleListing and QueueDirectory, the appender's slow paths into RecordPlacement and a queue's opening
     * into QueueOpening, 80 since every queue's settings name its excerpt codecs, the async engine moved above the
     * plain one and the double-buffered appender shares its close with the codec appender (2026-12-07,
     * docs/notes/performance-journal.md).
     */
    private static final int BUDGET = 80;

    /** One queue directory per setting, shared by the tests of the class. */
    @TempDir
    static Path dir;

    /** What a child JVM loaded on its way to a first excerpt, per setting: one child per setting for all tests. */
    private static final Map<String, List<String>> LOADED = new ConcurrentHashMap<>();

    private static List<String> loadedOnTheWayToAFirstExcerpt(boolean nativeAccess, boolean doubleBuffered)
            throws Exception {
        String setting = nativeAccess + "-" + doubleBuffered;
        List<String> cached = LOADED.get(setting);
        if (cached != null) {
            return cached;
        }
        List<String> loaded;
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of("-Xlog:class+load=info:stdout"),
                FirstAppendProcess.class, dir.resolve("q-" + setting).toString(), String.valueOf(doubleBuffered))) {
            child.awaitLine("appended", 60, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
            String transcript = child.transcript();
            loaded = transcript.substring(0, transcript.indexOf("appended")).lines()
                    .filter(line -> line.contains(" io.cq.core.") && !line.contains("io.cq.core.support."))
                    .map(line -> line.replaceAll(".* (io\\.cq\\.core\\.\\S+) .*", "$1"))
                    .toList();
        }
        assertThat(loaded).as("the class-loading log is there").contains("io.cq.core.internal.queue.StoreAppender");
        LOADED.put(setting, loaded);
        return loaded;
    }

    /** With native access, and without it: a plain {@code java -jar}, whose appenders reserve by writing zeros. */
    @ParameterizedTest(name = "native access: {0}, double-buffered: {1}")
    @CsvSource({"true, false", "true, true", "false, false"})
    void shouldLoadNoFailureOnlyClassOnTheWayToAFirstExcerpt(boolean nativeAccess, boolean doubleBuffered)
            throws Exception {
        List<String> loaded = loadedOnTheWayToAFirstExcerpt(nativeAccess, doubleBuffered);
        assertThat(loaded).as("thrown only on failure, or used only by features a first excerpt does not use")
                .doesNotContain("io.cq.core.AsyncModeMismatchException", "io.cq.core.RollTimeMismatchException",
                        "io.cq.core.QueueClosedException", "io.cq.core.NamedTailerInUseException",
                        "io.cq.core.QueueInterruptedException", "io.cq.core.WriteLockTimeoutException",
                        "io.cq.core.internal.system.Failures", "io.cq.core.internal.memory.ComposeBuffer",
                        "io.cq.core.internal.queue.UnusedIndexRelease",
                        "io.cq.core.internal.file.UnusedIndexSpace", "io.cq.core.DiskSpace");
    }

    @ParameterizedTest(name = "native access: {0}, double-buffered: {1}")
    @CsvSource({"true, false", "true, true", "false, false"})
    void shouldStayWithinTheClassBudgetOnTheWayToAFirstExcerpt(boolean nativeAccess, boolean doubleBuffered)
            throws Exception {
        List<String> loaded = loadedOnTheWayToAFirstExcerpt(nativeAccess, doubleBuffered);
        assertThat(loaded.stream().filter(name -> !name.contains("$$Lambda")).toList())
                .as("cq's classes before the first excerpt (budget: docs/notes/performance-journal.md, \"2026-12-07\")")
                .hasSizeLessThanOrEqualTo(BUDGET);
    }
}
