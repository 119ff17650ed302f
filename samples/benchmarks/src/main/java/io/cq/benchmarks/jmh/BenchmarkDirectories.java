package io.cq.benchmarks.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fresh queue directories under {@code cq.bench.dir} (unset or empty: the system temp directory). */
final class BenchmarkDirectories {
    private BenchmarkDirectories() {
    }

    static Path create(String prefix) {
        try {
            String configured = System.getProperty("cq.bench.dir", "");
            Path base = Path.of(configured.isBlank() ? System.getProperty("java.io.tmpdir") : configured);
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
