package io.cq.core;

import io.cq.core.QueueFilesystem.Locality;
import io.cq.core.internal.system.FilesystemGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueFilesystemTest {
    @TempDir
    Path dir;

    /** Types as Linux's /proc/mounts, macOS's statfs and Windows report them. */
    @ParameterizedTest
    @CsvSource({"ext4, LOCAL", "xfs, LOCAL", "btrfs, LOCAL", "zfs, LOCAL", "tmpfs, LOCAL", "overlay, LOCAL",
            "apfs, LOCAL", "NTFS, LOCAL", "ReFS, LOCAL", "f2fs, LOCAL",
            "nfs, NETWORK", "nfs4, NETWORK", "NFS, NETWORK", "cifs, NETWORK", "smb3, NETWORK", "smbfs, NETWORK",
            "9p, NETWORK", "virtiofs, NETWORK", "ceph, NETWORK", "glusterfs, NETWORK", "lustre, NETWORK",
            "vboxsf, NETWORK", "drvfs, NETWORK", "fuse.glusterfs, NETWORK", "fuse.sshfs, NETWORK",
            "fuse.s3fs, NETWORK", "fuse.rclone, NETWORK",
            "fuse, USER_SPACE", "fuseblk, USER_SPACE", "fuse.lxcfs, USER_SPACE", "fuse.encfs, USER_SPACE"})
    void shouldClassifyTheTypesOperatingSystemsReport(String type, Locality expected) {
        QueueFilesystem filesystem = QueueFilesystem.ofType(type);
        assertThat(filesystem.locality()).isEqualTo(expected);
        assertThat(filesystem.isLocal()).isEqualTo(expected == Locality.LOCAL);
        assertThat(filesystem.risk().isEmpty()).isEqualTo(expected == Locality.LOCAL);
    }

    @Test
    void shouldTreatATypeThatCannotBeReadAsLocal() {
        assertThat(QueueFilesystem.ofType("").locality()).isEqualTo(Locality.UNKNOWN);
        assertThat(QueueFilesystem.ofType(null).isLocal()).isTrue();
    }

    @Test
    void shouldReportTheFilesystemOfTheQueuesDirectory() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).requireLocalFilesystem(true).build()) {
            QueueFilesystem filesystem = queue.filesystem();
            assertThat(filesystem.type()).isEqualTo(Files.getFileStore(dir).type().toLowerCase());
            assertThat(filesystem.isLocal()).as("%s is a local disk here", filesystem.type()).isTrue();
            assertThat(queue.settings().describe()).containsEntry("requireLocalFilesystem", "true");
        }
    }

    @Test
    void shouldRefuseANetworkFilesystemOnlyWhenALocalOneIsRequired() {
        QueueFilesystem nfs = QueueFilesystem.ofType("nfs4");
        assertThatThrownBy(() -> FilesystemGuard.check(dir, nfs, true))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining(dir.toString())
                .hasMessageContaining("network file system (nfs4)")
                .hasMessageContaining("refused (requireLocalFilesystem)");
        assertThatNoException().isThrownBy(() -> FilesystemGuard.check(dir, nfs, false));
        assertThatThrownBy(() -> FilesystemGuard.check(dir, QueueFilesystem.ofType("fuse.lxcfs"), true))
                .hasMessageContaining("FUSE file system (fuse.lxcfs)");
    }
}
