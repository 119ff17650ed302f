package io.cq.core.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real ext4 file system of a few mebibytes, made in an image file and mounted through a loop device: for tests of
 * a full disk where a hole reads without allocating (on tmpfs it would take memory). Needs root, {@code mkfs.ext4}
 * and loop devices; a test without them is skipped with the reason.
 */
public final class SmallExt4 implements AutoCloseable {
    private final Path mount;

    private SmallExt4(Path mount) {
        this.mount = mount;
    }

    /** Makes an image of {@code bytes} in {@code dir} and mounts it at {@code dir/small-ext4}. */
    public static SmallExt4 mount(Path dir, long bytes) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting an ext4 image needs root");
        Path image = dir.resolve("ext4.img");
        try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
            file.setLength(bytes);
        }
        assumeTrue(run("mkfs.ext4", "-q", "-F", image.toString()), "mkfs.ext4 is not available");
        Path target = Files.createDirectories(dir.resolve("small-ext4"));
        assumeTrue(run("mount", "-o", "loop", image.toString(), target.toString()), "cannot mount a loop device");
        return new SmallExt4(target);
    }

    public Path path() {
        return mount;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", mount.toString());
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException notInstalled) {
            return false;
        }
    }
}
