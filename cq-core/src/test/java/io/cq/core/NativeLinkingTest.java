package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.LinkingProbe;
import io.cq.core.support.NumberedExcerpts;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native functions (docs/operations.md, "Native access") are linked once per JVM, started by appending and never
 * by opening a queue; appenders write zeros to reserve blocks until they are linked. A new JVM, with native access
 * and without it (a plain {@code java -jar}), must append across several reservation steps and leave every excerpt
 * readable and every block of the file allocated.
 */
class NativeLinkingTest {
    private static final int EXCERPTS = 100_000;

    @TempDir
    Path dir;

    /** Runs the probe in a new JVM; returns what it said before opening the queue, after it and once it appended. */
    private List<String> probeInANewJvm(boolean nativeAccess, Path queueDir) throws Exception {
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of(), LinkingProbe.class, queueDir.toString(),
                Integer.toString(EXCERPTS))) {
            String beforeOpen = child.awaitLine("before-open", 30, TimeUnit.SECONDS);
            String afterOpen = child.awaitLine("after-open", 30, TimeUnit.SECONDS);
            String linked = child.awaitLine("linked", 60, TimeUnit.SECONDS);
            child.awaitLine("closed", 30, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
            return List.of(beforeOpen, afterOpen, linked);
        }
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldLinkOnlyOnceAppending(boolean nativeAccess) throws Exception {
        List<String> said = probeInANewJvm(nativeAccess, dir.resolve("queue"));

        assertThat(said.get(0)).isEqualTo("before-open false");
        // Opening a queue, warming up and creating an appender link nothing: only appending does.
        assertThat(said.get(1)).isEqualTo("after-open false");
        assertThat(said.get(2)).isEqualTo("linked true reserves " + nativeAccess);
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldKeepEveryExcerptWhileReservingByZerosUntilLinked(boolean nativeAccess) throws Exception {
        Path queueDir = dir.resolve("queue");
        probeInANewJvm(nativeAccess, queueDir);

        assertThat(NumberedExcerpts.readAll(queueDir)).isEqualTo(EXCERPTS);
        NumberedExcerpts.assertEveryBlockAllocated(queueDir);
    }
}
