package io.cq.core;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The file system a queue's directory is on, as the operating system names it ({@code ext4}, {@code xfs},
 * {@code nfs4}, {@code cifs}, {@code fuse.sshfs}...), and whether cq can rely on it.
 *
 * <p>cq needs what a local file system gives: memory-mapped pages that every process on the machine sees at once,
 * file locks that hold, and blocks that are really allocated when reserved. A network file system gives none of
 * these between machines, and on one machine its client cache and lock manager make them slow or unreliable; a
 * FUSE file system depends on its user-space server for each. Such a directory is warned about when a queue opens,
 * and refused with {@link MappedQueueBuilder#requireLocalFilesystem(boolean)} (docs/operations.md, "File systems").
 *
 * @param type     the file system type reported for the directory, lower case; empty when it could not be read
 * @param locality what that type means for a queue
 */
public record QueueFilesystem(String type, Locality locality) {
    /** What a file system type means for a queue. */
    public enum Locality {
        /** A disk (or memory) of this machine: everything cq relies on holds. */
        LOCAL,
        /** Served over the network (NFS, SMB/CIFS, 9p, cluster file systems, VM shared folders). */
        NETWORK,
        /** Served by a user-space process through FUSE; its guarantees are the server's. */
        USER_SPACE,
        /** The type could not be read; treated as local. */
        UNKNOWN
    }

    /** Types served over a network, or shared with a host or other machines, whatever their transport. */
    private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "nfsd", "cifs", "smb", "smb2", "smb3", "smbfs",
            "ncpfs", "afs", "coda", "9p", "v9fs", "virtiofs", "ceph", "cephfs", "glusterfs", "lustre", "gpfs",
            "beegfs", "ocfs2", "gfs2", "afpfs", "webdav", "davfs", "vboxsf", "vmhgfs", "prl_fs", "drvfs", "orangefs",
            "pvfs2", "moosefs", "lizardfs", "juicefs", "efs", "azurefile", "sshfs", "s3fs", "rclone", "gcsfuse",
            "blobfuse", "blobfuse2", "objectivefs");

    public QueueFilesystem {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(locality, "locality");
    }

    /** Classifies a file system type as the operating system reports it (case is ignored). */
    public static QueueFilesystem ofType(String reported) {
        String type = reported == null ? "" : reported.trim().toLowerCase(Locale.ROOT);
        if (type.isEmpty()) {
            return new QueueFilesystem(type, Locality.UNKNOWN);
        }
        if (NETWORK.contains(type) || type.startsWith("nfs") || type.startsWith("smb")
                || NETWORK.contains(type.substring(type.indexOf('.') + 1))) {
            return new QueueFilesystem(type, Locality.NETWORK);
        }
        if (type.startsWith("fuse")) {
            return new QueueFilesystem(type, Locality.USER_SPACE);
        }
        return new QueueFilesystem(type, Locality.LOCAL);
    }

    /** Whether every guarantee cq relies on holds here: local, or a type that could not be read. */
    public boolean isLocal() {
        return locality == Locality.LOCAL || locality == Locality.UNKNOWN;
    }

    /** Why this file system does not suit a queue, in a sentence; empty for a local one. */
    public String risk() {
        return switch (locality) {
            case LOCAL, UNKNOWN -> "";
            case NETWORK -> "a network file system (" + type + "): memory-mapped pages are not shared with other "
                    + "machines and may reach other processes late, file locks may not hold, and disk blocks may not "
                    + "be reserved";
            case USER_SPACE -> "a FUSE file system (" + type + "): memory mapping, file locks and block reservation "
                    + "depend on its user-space server, which may not provide them";
        };
    }
}
