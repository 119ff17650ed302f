package io.cq.core.internal.system;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Creates files so that no process ever sees one half-initialised: the content goes to a temporary file that
 * is then hard-linked to its name, which fails if the name exists (so two creators cannot replace each
 * other's file, as a rename would), and the temporary name is removed.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /**
     * Creates {@code file} holding exactly {@code content}, written whole, so that its blocks are allocated by the
     * write and no reservation through another descriptor is needed later: closing any descriptor of a file drops
     * every fcntl lock the process holds on it (docs/file-format.md, "Locks and liveness").
     *
     * @return true when this call created the file, false when another process had created it first
     */
    public static boolean createWithContent(Path file, ByteBuffer content, FilePermissions permissions)
            throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + "." + ProcessIdentity.pid() + "."
                + System.nanoTime() + ".tmp");
        try {
            try (FileChannel channel = permissions.create(temporary)) {
                content.rewind();
                while (content.hasRemaining()) {
                    channel.write(content, content.position());
                }
            }
            try {
                Files.createLink(file, temporary);
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            } catch (UnsupportedOperationException | IOException linkFailure) {
                if (Files.exists(file)) {
                    return false;
                }
                // Some file systems have no hard links; the caller holds a lock that excludes other creators.
                Files.move(temporary, file);
                return true;
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
