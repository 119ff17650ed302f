package io.cq.core;

import io.cq.core.internal.system.BackgroundWork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The free space under a queue: its figures, the thresholds and their warning, and appends on a full disk. */
class DiskSpaceTest {
    @TempDir
    Path dir;

    /** A queue whose threshold no disk is above. */
    private MappedQueue belowTheThreshold() {
        return MappedQueue.builder(dir.resolve("q")).diskSpaceWarning(Long.MAX_VALUE / 2, 0).build();
    }

    @Test
    void shouldReportLowDiskSpaceBelowTheThreshold() {
        try (MappedQueue queue = belowTheThreshold()) {
            assertThat(queue.diskSpace().low()).isTrue();
        }
    }

    @Test
    void shouldReportTheUsableAndTotalBytesOfTheDisk() {
        try (MappedQueue queue = belowTheThreshold()) {
            DiskSpace space = queue.diskSpace();
            assertThat(space.usableBytes()).isPositive();
            assertThat(space.totalBytes()).isGreaterThanOrEqualTo(space.usableBytes());
        }
    }

    @Test
    void shouldNotReportLowDiskSpaceAboveTheThreshold() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("r")).diskSpaceWarning(0, 0).build()) {
            assertThat(queue.diskSpace().low()).isFalse();
        }
    }

    @Test
    void shouldWarnOncePerCrossing() {
        java.util.logging.Logger logger =
                java.util.logging.Logger.getLogger("io.cq.core.internal.system.DiskSpaceMonitor");
        java.util.List<java.util.logging.LogRecord> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel() == java.util.logging.Level.WARNING) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try (MappedQueue queue = belowTheThreshold()) {
            queue.diskSpace();
            queue.diskSpace();
            queue.acquireAppender().writeText("grows a file, which checks again");
            queue.diskSpace();
            // The warning is logged by the background thread, never by the thread that found it (it may hold the
            // write lock): wait for it, then make sure no second one follows.
            await().atMost(Duration.ofSeconds(5)).until(() -> warnings.size() >= 1);
            BackgroundWork.drain();
            assertThat(warnings).hasSize(1);
        } finally {
            logger.removeHandler(capture);
        }
    }

    /** A queue on an 8 MiB tmpfs, appended to until an append failed: how many were accepted and the failure. */
    private record FullQueue(MappedQueue queue, ExcerptAppender appender, int appended, Throwable failure) {
        static final int PAYLOAD = 10_000;
    }

    private interface FullQueueCheck {
        void check(FullQueue full);
    }

    /** Fills a queue on a small tmpfs until an append fails, then runs the check with the queue still open. */
    private void onAFullDisk(FullQueueCheck check) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a small tmpfs needs root");
        Path mount = Files.createDirectories(dir.resolve("small-fs"));
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0,
                "mount -t tmpfs failed: " + new String(mounting.getInputStream().readAllBytes()));
        try {
            int appended = 0;
            try (MappedQueue queue = MappedQueue.builder(mount.resolve("q")).blockSize(1 << 20).build()) {
                ExcerptAppender appender = queue.acquireAppender();
                byte[] payload = new byte[FullQueue.PAYLOAD];
                Throwable failure = null;
                while (failure == null) {
                    try {
                        appender.writeBytes(payload);
                        appended++;
                    } catch (UncheckedIOException e) {
                        failure = e;
                    }
                }
                check.check(new FullQueue(queue, appender, appended, failure));
            }
        } finally {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldFailWithAnIoErrorNamingTheFileWhenTheDiskIsFull() throws Exception {
        onAFullDisk(full -> {
            assertThat(full.failure()).hasMessageContaining("No space left on device").hasMessageContaining(".cq4");
            assertThatThrownBy(() -> full.appender().writeBytes(new byte[FullQueue.PAYLOAD]))
                    .isInstanceOf(UncheckedIOException.class);
        });
    }

    @Test
    void shouldKeepEveryAcceptedExcerptReadableWhenTheDiskIsFull() throws Exception {
        onAFullDisk(full -> {
            assertThat(full.appended()).isPositive();
            ExcerptTailer tailer = full.queue().createTailer();
            for (int i = 0; i < full.appended(); i++) {
                assertThat(tailer.readBytes()).as("excerpt %d", i).hasSize(FullQueue.PAYLOAD);
            }
            assertThat(tailer.readBytes()).isNull();
        });
    }}
