package io.cq.test;

import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * One {@link TempQueue}'s queue and the fresh directory it lives in. JUnit closes it with the extension context it
 * was stored in (the store closes {@link AutoCloseable} values), which deletes the directory.
 */
final class TemporaryQueue implements AutoCloseable {
    private final Path root;
    private final MappedQueue queue;
    private final RollCycle rollCycle;

    private TemporaryQueue(Path root, MappedQueue queue, RollCycle rollCycle) {
        this.root = root;
        this.queue = queue;
        this.rollCycle = rollCycle;
    }

    /** Opens a queue named {@code name} in a new directory under {@code java.io.tmpdir}. */
    static TemporaryQueue open(String name, RollCycle rollCycle) {
        Path root;
        try {
            root = Files.createTempDirectory("cq-test-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for @TempQueue '" + name + "'", e);
        }
        try {
            return new TemporaryQueue(root, MappedQueue.builder(root.resolve(name)).rollCycle(rollCycle).build(),
                    rollCycle);
        } catch (RuntimeException | Error e) {
            deleteTree(root);
            throw e;
        }
    }

    MappedQueue queue() {
        return queue;
    }

    RollCycle rollCycle() {
        return rollCycle;
    }

    /** Closes the queue (its appenders and tailers too), then deletes its directory, even when closing failed. */
    @Override
    public void close() {
        try {
            queue.close();
        } finally {
            deleteTree(root);
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                    if (failure != null) {
                        throw failure;
                    }
                    Files.delete(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary queue directory " + root, e);
        }
    }
}
