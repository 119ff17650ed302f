package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Excerpts numbered from 0, each holding its number and then the number's complement (what {@link LinkingProbe} and
 * {@link PacedAppender} append), checked after their writer is gone.
 */
public final class NumberedExcerpts {
    private NumberedExcerpts() {
    }

    /** Reads the closed queue from the start, checking each excerpt's number; returns how many there are. */
    public static long readAll(Path queueDir) {
        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            long expected = 0;
            while (true) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        return expected;
                    }
                    assertThat(context.bytes().readLong()).isEqualTo(expected);
                    assertThat(context.bytes().readLong()).isEqualTo(~expected);
                    expected++;
                }
            }
        }
    }

    /** The queue's one cycle file keeps its records with every block of them allocated (by zeros or fallocate). */
    public static void assertEveryBlockAllocated(Path queueDir) {
        try (Stream<Path> files = Files.list(queueDir)) {
            Path cycle = files.filter(file -> file.toString().endsWith(".cq4")).findFirst().orElseThrow();
            assertThat(DiskUsage.allocatedBytes(cycle)).as("every block of the records of %s allocated", cycle)
                    .isGreaterThanOrEqualTo(Files.size(cycle) - 4096);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
