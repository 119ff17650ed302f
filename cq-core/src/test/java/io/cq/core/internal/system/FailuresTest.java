package io.cq.core.internal.system;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

import static org.assertj.core.api.Assertions.assertThat;

/** File failures are described in words, not by the bare path the JDK's exceptions carry as their message. */
class FailuresTest {
    @Test
    void shouldSayPermissionDeniedOrNoSuchFileWhereTheJdkGivesOnlyThePath() {
        assertThat(Failures.describe(new AccessDeniedException("/q/metadata.cq4t"))).isEqualTo("permission denied");
        assertThat(Failures.describe(new NoSuchFileException("/q/x.cq4", null, "gone meanwhile")))
                .isEqualTo("no such file or directory (gone meanwhile)");
        assertThat(Failures.describe(new IOException("No space left on device"))).isEqualTo("No space left on device");
    }
}
