package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The durability modes (MappedQueueBuilder.durability) and their sync interval. */
class DurabilityTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Durability.class)
    void shouldReadBackWhatWasAppendedInEachDurabilityMode(Durability durability) {
        Path queueDir = dir.resolve(durability.name());
        try (MappedQueue queue = MappedQueue.builder(queueDir).durability(durability)
                .syncInterval(Duration.ofMillis(5))
                .build()) {
            assertThat(queue.durability()).isEqualTo(durability);
            for (int i = 0; i < 100; i++) {
                queue.acquireAppender().writeText(durability + " " + i);
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < 100; i++) {
                assertThat(tailer.readText()).isEqualTo(durability + " " + i);
            }
        }
    }

    @Test
    void shouldRefuseASyncIntervalOfZero() {
        assertThatThrownBy(() -> MappedQueue.builder(dir).syncInterval(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("syncInterval=");
    }
}
