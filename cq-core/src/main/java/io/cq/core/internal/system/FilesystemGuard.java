package io.cq.core.internal.system;

import io.cq.core.QueueException;
import io.cq.core.QueueFilesystem;

import java.io.IOException;
import java.nio.file.Path;

/** Reads the file system type of a queue's directory at open, and warns about or refuses one that is not local. */
public final class FilesystemGuard {
    private FilesystemGuard() {
    }

    /**
     * The file system of a queue's directory, through the file store its disk-space monitor keeps (which it then needs
     * not find again: finding one reads the system's mount table and checks each entry); of type ""
     * ({@link QueueFilesystem.Locality#UNKNOWN}) when unknown.
     */
    public static QueueFilesystem detect(DiskSpaceMonitor diskSpace) {
        try {
            return QueueFilesystem.ofType(diskSpace.store().type());
        } catch (IOException | SecurityException e) {
            return QueueFilesystem.ofType("");
        }
    }

    /**
     * Refuses a file system that is not local when that is required, and warns about it otherwise.
     *
     * @throws QueueException naming the directory, the type and the risk, when {@code requireLocal} is set
     */
    public static void check(Path directory, QueueFilesystem filesystem, boolean requireLocal) {
        if (filesystem.isLocal()) {
            return;
        }
        if (requireLocal) {
            throw new QueueException("queue directory " + directory + " is on " + filesystem.risk()
                    + "; refused (requireLocalFilesystem). Put the queue on a local disk");
        }
        Log.warning(FilesystemGuard.class, "queue directory {0} is on {1}. Put the queue on a local disk, or set "
                + "requireLocalFilesystem to refuse such directories", directory, filesystem.risk());
    }
}
