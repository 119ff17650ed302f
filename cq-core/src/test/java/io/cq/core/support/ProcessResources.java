package io.cq.core.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What this JVM holds, read from /proc: open file descriptors, mappings of deleted files, heap after GC. */
public final class ProcessResources {
    private ProcessResources() {
    }

    public static int openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines of /proc/self/maps that map a deleted file under {@code directory}. */
    public static List<String> mappingsOfDeletedFiles(Path directory) {
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            String prefix = directory.toAbsolutePath().toString();
            return maps.filter(line -> line.contains(prefix) && line.endsWith("(deleted)")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Heap in use after full collections, taken as the least of a few (a collection may run late). */
    public static long heapAfterGc() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
