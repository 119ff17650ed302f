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

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldLinkOnlyOnceAppendingAndKeepEveryExcerptWhileReservingByZerosUntilThen(boolean nativeAccess)
            throws Exception {
        Path queueDir = dir.resolve("queue");
        try (ChildJvm child = ChildJvm.start(nativeAccess, List.of(), LinkingProbe.class, queueDir.toString(),
                Integer.toString(EXCERPTS))) {
            assertThat(child.awaitLine("before-open", 30, TimeUnit.SECONDS)).isEqualTo("before-open false");
            // Opening a queue, warming up and creating an appender link nothing: only appending does.
            assertThat(child.awaitLine("after-open", 30, TimeUnit.SECONDS)).isEqualTo("after-open false");
            assertThat(child.awaitLine("linked", 60, TimeUnit.SECONDS))
                    .isEqualTo("linked true reserves " + nativeAccess);
            child.awaitLine("closed", 30, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
        }

        assertThat(NumberedExcerpts.readAll(queueDir)).isEqualTo(EXCERPTS);
        NumberedExcerpts.assertEveryBlockAllocated(queueDir);
    }
}
