package io.cq.core.internal.async;

import io.cq.core.CorruptQueueException;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.system.Log;
import io.cq.core.internal.table.AsyncBufferConfig;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file of an async queue's buffer: where it lives, creating it whole, opening it at the size its table store
 * names, and deleting it once drained. Each only under the table store's buffer-file lock (docs/file-format.md,
 * "Async buffer"); what the file holds is {@link AsyncRing}'s.
 */
final class AsyncRingFile {
    private AsyncRingFile() {
    }

    /** The buffer file the table store names, absolute. */
    static Path pathOf(AsyncBufferConfig config) {
        return Path.of(config.directory()).resolve(AsyncRingDescriptor.fileName(config.queueId()))
                .toAbsolutePath().normalize();
    }

    /** Creates the file when missing and this process may write; whether it did. */
    static boolean createIfMissing(Path path, long size, boolean writable, FilePermissions permissions)
            throws IOException {
        if (!writable || Files.exists(path)) {
            return false;
        }
        permissions.createDirectories(path.getParent());
        create(path, size, permissions);
        return true;
    }

    /** Writes the whole file, so its blocks are allocated now: a mapped write to a hole can fault on a full disk. */
    private static void create(Path path, long size, FilePermissions permissions) throws IOException {
        // Under the buffer-file lock: a leftover of a process that died creating it is nobody's.
        Path temporary = path.resolveSibling(path.getFileName() + ".new");
        Files.deleteIfExists(temporary);
        try (FileChannel channel = permissions.create(temporary)) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long written = 0; written < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
                written += channel.write(zeros, written);
            }
        }
        Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Opens the file, refusing one whose length is not that of a buffer of {@code capacity} bytes. */
    static FileChannel open(Path path, TableStore store, long capacity, boolean writable) throws IOException {
        FileChannel channel = writable
                ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.READ);
        long size = AsyncRingDescriptor.fileSize(capacity);
        try {
            if (channel.size() != size) {
                throw new CorruptQueueException(path, 0, "the async buffer of queue " + store.path().getParent()
                        + " is " + channel.size() + " bytes long; a buffer of " + capacity + " bytes takes "
                        + size + ". Stop every process of the queue and delete the file: what it held that was "
                        + "not drained is lost");
            }
        } catch (RuntimeException | IOException e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    /** Why the buffer could not be opened, for a writer (a reader that finds none goes on without it). */
    static UncheckedIOException cannotOpen(Path path, TableStore store, IOException e) {
        if (e instanceof NoSuchFileException) {
            // A writer that cannot create the buffer (its directory cannot be made) must not go on without it.
            return new UncheckedIOException("cannot open the async buffer " + path + " of queue "
                    + store.path().getParent() + ": " + e.getMessage() + " does not exist and cannot be created. "
                    + "Every process of an async queue must be able to read and write its buffer's directory", e);
        }
        return new UncheckedIOException("cannot open the async buffer " + path + " of queue "
                + store.path().getParent() + ": " + e.getMessage() + ". Every process of an async queue must be "
                + "able to read and write its buffer's directory", e);
    }

    static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            Log.warning(AsyncRing.class, "cannot delete the drained async buffer {0}: {1}", path, e.getMessage());
        }
    }
}
