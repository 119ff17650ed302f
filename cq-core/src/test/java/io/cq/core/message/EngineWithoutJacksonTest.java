package io.cq.core.message;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.RawExcerptsProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Jackson is the message layer's dependency only: an application using raw excerpts never loads it. */
class EngineWithoutJacksonTest {
    @TempDir
    Path dir;

    @Test
    void shouldLoadNoJacksonClassForRawExcerptsInAFreshJvm() throws Exception {
        try (ChildJvm child = ChildJvm.start(List.of("-Xlog:class+load=info:stdout"), RawExcerptsProcess.class,
                dir.toString())) {
            child.awaitLine("done 42", 60, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
            String transcript = child.transcript();
            assertThat(transcript).as("the class-loading log is there")
                    .contains("io.cq.core.internal.queue.StoreAppender");
            assertThat(transcript).doesNotContain("tools.jackson").doesNotContain("com.fasterxml.jackson");
            assertThat(transcript).doesNotContain("io.cq.core.internal.message");
        }
    }

    @Test
    void shouldShowJacksonInTheClassLoadingLogOnceMessagesAreUsed() throws Exception {
        // the control: the same log, read the same way, does reveal Jackson when the message layer runs
        try (ChildJvm child = ChildJvm.start(List.of("-Xlog:class+load=info:stdout"), RawExcerptsProcess.class,
                dir.toString(), "messages")) {
            child.awaitLine("done 42", 60, TimeUnit.SECONDS);
            assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
            assertThat(child.transcript()).contains("tools.jackson.dataformat.cbor")
                    .contains("io.cq.core.internal.message");
        }
    }
}
