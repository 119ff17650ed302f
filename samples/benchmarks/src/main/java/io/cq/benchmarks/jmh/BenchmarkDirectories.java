package io.cq.benchmarks.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fresh queue directories under {@code cq.bench.dir} (default: the system temp directory). */
final class BenchmarkDirectories {
    private BenchmarkDirectories() {
    }

    static Path create(String prefix) {
        try {
            Path base = Path.of(System.getProperty("cq.bench.dir", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
