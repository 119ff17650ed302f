package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who may read and write a queue's files and directories, and which directories a queue refuses. */
class FilePermissionsTest {
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

    private Path directoryEveryUserMayWriteTo() throws IOException {
        Path shared = Files.createDirectories(dir.resolve("shared-by-all"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        return shared;
    }

    @Test
    void shouldRefuseADirectoryEveryUserMayWriteToWhenAsked() throws IOException {
        Path shared = directoryEveryUserMayWriteTo();
        assertThatThrownBy(() -> MappedQueue.builder(shared).refuseSharedDirectory(true).build())
                .isInstanceOf(QueueException.class).hasMessageContaining("writable by every user")
                .hasMessageContaining("chmod o-w");
    }

    @Test
    void shouldOpenADirectoryEveryUserMayWriteToUnlessAskedToRefuseIt() throws IOException {
        Path shared = directoryEveryUserMayWriteTo();
        try (MappedQueue queue = MappedQueue.builder(shared).build()) {
            long index = queue.acquireAppender().writeText("opened with a warning");
            assertThat(queue.lastIndex()).isEqualTo(index);
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
    }

    @Test
    void shouldRefusePermissionsThatDoNotLetTheOwnerReadAndWrite() {
        assertThatThrownBy(() -> MappedQueue.builder(dir.resolve("x"))
                .filePermissions(PosixFilePermissions.fromString("r--------")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must let the owner read and write");
    }
}
