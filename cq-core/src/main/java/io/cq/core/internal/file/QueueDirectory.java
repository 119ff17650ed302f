package io.cq.core.internal.file;

import io.cq.core.QueueException;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** A queue's directory before its files are opened: there, usable, and with the permissions asked for. */
public final class QueueDirectory {
    private QueueDirectory() {
    }

    /**
     * Checks that a queue's directory can be used, creating it (with its permissions) for a writable queue.
     *
     * @throws QueueException saying why it cannot
     */
    public static void prepare(Path directory, boolean readOnly, FilePermissions permissions,
                               boolean refuseShared) {
        if (!Files.isDirectory(directory)) {
            if (Files.exists(directory, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(directory)) {
                throw new QueueException("queue path " + directory + " exists but is not a directory");
            }
            if (readOnly) {
                throw new QueueException("queue directory " + directory + " does not exist; a queue opened read-only "
                        + "must already exist");
            }
            try {
                // Tolerates another process creating it at the same moment.
                permissions.createDirectories(directory);
            } catch (FileAlreadyExistsException e) {
                throw new QueueException("queue path " + directory + " exists but is not a directory");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create queue directory " + directory + ": " + e, e);
            }
        }
        if (!Files.isReadable(directory) || (!readOnly && !Files.isWritable(directory))) {
            throw new QueueException("queue directory " + directory + " is not "
                    + (readOnly ? "readable" : "readable and writable") + " by this process");
        }
        if (FilePermissions.isWritableByOthers(directory)) {
            if (refuseShared) {
                throw new QueueException("queue directory " + directory + " is writable by every user, who could "
                        + "replace or damage its files; refused (refuseSharedDirectory): chmod o-w " + directory);
            }
            Log.warning(CycleFiles.class, "queue directory {0} is writable by every user: any of them can replace "
                    + "or damage its files (chmod o-w {0})", directory);
        }
    }
}
