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
    /** Free space, in multiples of the file's size, above which reserving its blocks may wait a moment. */
    private static final long AMPLE_ROOM_FACTOR = 64;

    private AtomicFiles() {
    }

    /**
     * Only for files that no process ever locks (cycle files): the reservation opens and closes a descriptor of
     * the file, and closing one drops every fcntl lock the process holds on that file.
     */
    private static void reserveInBackground(Path file, long size) {
        BackgroundWork.submit(() -> {
            try {
                NativeIo.reserve(file, 0, size);
            } catch (IOException e) {
                Log.warning(AtomicFiles.class, "cannot reserve the blocks of " + file, e);
            }
        });
    }

    /**
     * @return true when this call created the file, false when another process had created it first
     */
    public static boolean createWithContent(Path file, ByteBuffer content, long size, FilePermissions permissions)
            throws IOException {
        boolean reserveLater = false;
        Path temporary = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + "."
                + System.nanoTime() + ".tmp");
        try {
            try (FileChannel channel = permissions.create(temporary)) {
                content.rewind();
                while (content.hasRemaining()) {
                    channel.write(content, content.position());
                }
                if (size > channel.size()) {
                    // Reserved, not just sized: a full disk fails the creation instead of a later write. Only
                    // while the downcalls are still being linked (the first ~100 ms of a process) and the disk
                    // has ample room is the reservation done right after creation instead, in the background.
                    reserveLater = !NativeIo.isReady()
                            && temporary.toFile().getUsableSpace() > AMPLE_ROOM_FACTOR * size;
                    if (!reserveLater) {
                        NativeIo.reserve(temporary, 0, size);
                    }
                    if (size > channel.size()) {
                        channel.write(ByteBuffer.allocate(1), size - 1);
                    }
                }
            }
            try {
                Files.createLink(file, temporary);
                if (reserveLater) {
                    reserveInBackground(file, size);
                }
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
