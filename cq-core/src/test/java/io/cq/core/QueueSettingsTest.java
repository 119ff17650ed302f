package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class QueueSettingsTest {
    @TempDir
    Path dir;

    @Test
    void shouldReportTheSettingsTheQueueWasBuiltWith() {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).blockSize(1L << 20)
                .indexSpacing(64).durability(Durability.ASYNC).syncInterval(Duration.ofMillis(250)).retainCycles(3)
                .diskSpaceWarning(1L << 20, 2.5).build()) {
            QueueSettings settings = queue.settings();
            assertThat(settings.directory()).isEqualTo(dir);
            assertThat(settings.rollCycle()).isEqualTo(RollCycle.HOURLY).isEqualTo(queue.rollCycle());
            assertThat(settings.blockSize()).isEqualTo(1L << 20).isEqualTo(queue.blockSize());
            assertThat(settings.indexSpacing()).isEqualTo(64).isEqualTo(queue.indexSpacing());
            assertThat(settings.durability()).isEqualTo(Durability.ASYNC).isEqualTo(queue.durability());
            assertThat(settings.syncInterval()).isEqualTo(Duration.ofMillis(250));
            assertThat(settings.retainCycles()).isEqualTo(3);
            assertThat(settings.diskSpaceWarningBytes()).isEqualTo(1L << 20);
            assertThat(settings.diskSpaceWarningPercent()).isEqualTo(2.5);
            assertThat(settings.readOnly()).isFalse();
            assertThat(settings.describe()).containsEntry("rollCycle", "HOURLY").containsEntry("blockSize", "1048576")
                    .containsEntry("durability", "ASYNC").containsEntry("syncInterval", "PT0.25S")
                    .containsEntry("filePermissions", "rw-------").containsEntry("storeFileListener", "none")
                    .containsEntry("codecs", "none").doesNotContainKey("directory")
                    .doesNotContainKey("encryptionKeys")
                    // Every setting but the directory (shown on its own) and the keys (never shown).
                    .hasSize(QueueSettings.class.getRecordComponents().length - 2);
        }
    }

    private MappedQueue openReadOnlyAskingForDailyAndSync() {
        MappedQueue.builder(dir).rollCycle(RollCycle.MINUTELY).build().close();
        return MappedQueue.builder(dir).rollCycle(RollCycle.DAILY).readOnly(true).durability(Durability.SYNC).build();
    }

    @Test
    void shouldReportTheRollCycleInForce() {
        try (MappedQueue queue = openReadOnlyAskingForDailyAndSync()) {
            assertThat(queue.settings().rollCycle()).isEqualTo(RollCycle.MINUTELY);
        }
    }

    @Test
    void shouldReportNoForcingOnAReadOnlyQueue() {
        try (MappedQueue queue = openReadOnlyAskingForDailyAndSync()) {
            assertThat(queue.settings().durability()).isEqualTo(Durability.PAGE_CACHE);
            assertThat(queue.settings().readOnly()).isTrue();
        }
    }
}
