package io.cq.core.internal.lock;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write-lock word and the write generation beside it are read and written by the lock package alone
 * (docs/architecture.md): their offsets are compile-time constants, which javac copies into every class that uses
 * them, so no bytecode rule sees who touches the word; the sources do.
 */
class LockWordOwnershipTest {
    private static final Path MAIN = Path.of("src/main/java/io/cq/core");

    @Test
    void shouldNameTheLockWordsOffsetsOnlyInTheLockAndLayoutPackages() throws IOException {
        List<String> outside;
        try (Stream<Path> files = Files.walk(MAIN)) {
            outside = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.startsWith(MAIN.resolve("internal/lock"))
                            && !file.startsWith(MAIN.resolve("internal/layout")))
                    .filter(LockWordOwnershipTest::namesTheWord)
                    .map(Path::toString)
                    .toList();
        }
        assertThat(outside).isEmpty();
    }

    private static boolean namesTheWord(Path file) {
        try {
            String text = Files.readString(file);
            return text.contains("WRITE_LOCK_OFFSET") || text.contains("WRITE_GENERATION_OFFSET");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
