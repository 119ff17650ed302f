package io.cq.core.internal.inspect;

import io.cq.core.QueueDiskUsage;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.file.CycleFiles;
import io.cq.core.internal.index.Position;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.os.FileBlocks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Measures what a queue's files hold and occupy ({@link QueueDiskUsage}); visits every cycle file. */
public final class DiskUsageReader {
    private DiskUsageReader() {
    }

    public static QueueDiskUsage measure(CycleFiles files) {
        Path tableStore = files.tableStore().path();
        long tableBytes = sizeOf(tableStore);
        int count = 1;
        long written = tableBytes;
        long apparent = tableBytes;
        long allocated = FileBlocks.allocatedBytes(tableStore);
        Position end = new Position();
        for (long cycle : files.cycles()) {
            CycleFile file = files.acquire(cycle);
            if (file == null) {
                continue;
            }
            try {
                file.locateEnd(end);
                count++;
                written += end.position() + ExcerptHeaderDescriptor.SIZE;
                apparent += file.mapped().size();
                long blocks = FileBlocks.allocatedBytes(file.path());
                allocated = allocated < 0 || blocks < 0 ? -1 : allocated + blocks;
            } finally {
                files.release(file);
            }
        }
        return new QueueDiskUsage(count, written, apparent, allocated);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + file + ": " + e.getMessage(), e);
        }
    }
}
