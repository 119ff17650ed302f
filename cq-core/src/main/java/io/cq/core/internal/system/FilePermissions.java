package io.cq.core.internal.system;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.HashSet;
import java.util.Set;

/**
 * The permissions cq gives the files and directories it creates (owner-only by default), applied after creation
 * so the process's umask cannot narrow or widen them. Ignored where the file system has no POSIX permissions.
 */
public final class FilePermissions {
    /** rw-------, the default; not built with {@code PosixFilePermissions.fromString}, which makes an EnumSet. */
    public static final Set<PosixFilePermission> OWNER_READ_WRITE =
            Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final int OTHERS_WRITE_BIT = 0002;
    private final Set<PosixFilePermission> files;
    private final Set<PosixFilePermission> directories;

    public FilePermissions(Set<PosixFilePermission> files) {
        this.files = Set.copyOf(files);
        // A HashSet, not an EnumSet: the first EnumSet of a JVM reads the enum's constants reflectively, milliseconds
        // of method-handle code generation on the path to a new process's first excerpt.
        Set<PosixFilePermission> dirs = new HashSet<>(files.isEmpty() ? Set.of(PosixFilePermission.OWNER_READ)
                : files);
        // A directory one may read must also be searchable, or its files cannot be opened.
        if (files.contains(PosixFilePermission.OWNER_READ)) {
            dirs.add(PosixFilePermission.OWNER_EXECUTE);
        }
        if (files.contains(PosixFilePermission.GROUP_READ)) {
            dirs.add(PosixFilePermission.GROUP_EXECUTE);
        }
        if (files.contains(PosixFilePermission.OTHERS_READ)) {
            dirs.add(PosixFilePermission.OTHERS_EXECUTE);
        }
        this.directories = Set.copyOf(dirs);
    }

    public static FilePermissions ownerOnly() {
        return new FilePermissions(OWNER_READ_WRITE);
    }

    public Set<PosixFilePermission> files() {
        return files;
    }

    /** Creates a new file (failing when it exists) with these permissions, whatever the umask. */
    public FileChannel create(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        apply(file, files);
        return channel;
    }

    /**
     * Creates the directory and any missing parents, each with the queue's directory permissions (owner-only by
     * default): created with the process's umask, a parent would let others list or reach the queue.
     */
    public void createDirectories(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        Files.createDirectories(absolute);
        for (Path created = absolute; created != null && !created.equals(existing); created = created.getParent()) {
            apply(created, directories);
        }
    }

    /** Whether every user may write to the directory (and so replace or damage its files). */
    public static boolean isWritableByOthers(Path directory) {
        if (!directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return false;
        }
        try {
            // The mode bits, where the file system has them: the set of permissions is an EnumSet, whose first use in a
            // JVM reads the enum reflectively, milliseconds on the path to a new queue's first excerpt.
            if (directory.getFileSystem().supportedFileAttributeViews().contains("unix")
                    && Files.getAttribute(directory, "unix:mode") instanceof Integer mode) {
                return (mode & OTHERS_WRITE_BIT) != 0;
            }
            return Files.getPosixFilePermissions(directory).contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static void apply(Path path, Set<PosixFilePermission> permissions) throws IOException {
        if (path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(path, permissions);
        }
    }
}
