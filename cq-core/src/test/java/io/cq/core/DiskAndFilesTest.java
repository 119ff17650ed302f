package io.cq.core;

import io.cq.core.internal.system.BackgroundWork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DiskAndFilesTest {
    @TempDir
    Path dir;

    @Test
    void shouldCreateFilesAndDirectoriesForTheOwnerOnlyByDefault() throws IOException {
        Path queueDir = dir.resolve("q");
        try (MappedQueue queue = MappedQueue.builder(queueDir).build()) {
            queue.acquireAppender().writeText("x");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(queueDir))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(queueDir)) {
            for (Path file : files.toList()) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as(file.toString())
                        .isEqualTo("rw-------");
            }
        }
    }

    /** Opens a queue two missing directories below a directory everyone may read, and appends to it. */
    private Path appendInMissingParentDirectories() throws IOException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path queueDir = dir.resolve("a/b/q");
        try (MappedQueue queue = MappedQueue.builder(queueDir).build()) {
            queue.acquireAppender().writeText("x");
        }
        return queueDir;
    }

    @Test
    void shouldCreateMissingParentDirectoriesForTheOwnerOnly() throws IOException {
        Path queueDir = appendInMissingParentDirectories();
        for (Path created : List.of(dir.resolve("a"), dir.resolve("a/b"), queueDir)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created))).as(created.toString())
                    .isEqualTo("rwx------");
        }
    }

    @Test
    void shouldLeaveExistingParentDirectoriesAlone() throws IOException {
        appendInMissingParentDirectories();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void shouldRefuseADirectoryEveryUserMayWriteToWhenAsked() throws IOException {
        Path shared = Files.createDirectories(dir.resolve("shared-by-all"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> MappedQueue.builder(shared).refuseSharedDirectory(true).build())
                .isInstanceOf(QueueException.class).hasMessageContaining("writable by every user")
                .hasMessageContaining("chmod o-w");
        try (MappedQueue queue = MappedQueue.builder(shared).build()) {
            queue.acquireAppender().writeText("opened with a warning");
        }
    }

    @Test
    void shouldApplyConfiguredPermissionsWhateverTheUmask() throws IOException {
        Path queueDir = dir.resolve("shared");
        try (MappedQueue queue = MappedQueue.builder(queueDir)
                .filePermissions(PosixFilePermissions.fromString("rw-rw-r--")).build()) {
            queue.acquireAppender().writeText("x");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(queueDir))).isEqualTo("rwxrwxr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(queueDir.resolve("metadata.cq4t"))))
                .isEqualTo("rw-rw-r--");
        assertThatThrownBy(() -> MappedQueue.builder(dir.resolve("x"))
                .filePermissions(PosixFilePermissions.fromString("r--------")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must let the owner read and write");
    }

    @Test
    void shouldReportDiskSpaceAgainstTheThresholds() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).diskSpaceWarning(Long.MAX_VALUE / 2, 0)
                .build()) {
            DiskSpace space = queue.diskSpace();
            assertThat(space.low()).isTrue();
            assertThat(space.usableBytes()).isPositive();
            assertThat(space.totalBytes()).isGreaterThanOrEqualTo(space.usableBytes());
        }
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
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).diskSpaceWarning(Long.MAX_VALUE / 2, 0)
                .build()) {
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

    @Test
    void shouldKeepOnlyTheCurrentCycleMappedWhileATailerCrossesManyCycles() {
        var clock = new io.cq.core.support.MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 300; i++) {
                appender.writeText("cycle " + i);
                clock.advance(java.time.Duration.ofSeconds(1));
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < 300; i++) {
                assertThat(tailer.readText()).isEqualTo("cycle " + i);
            }
            assertThat(openMappings()).as("mapped cycle files").isLessThanOrEqualTo(3);
        }
    }

    /** Cycle files this process has mapped now, from /proc/self/maps. */
    private static long openMappings() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(line -> line.endsWith(".cq4")).map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .distinct().count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
    }
}
