package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.QueueDiskUsage;
import io.cq.core.WriteContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: appends 1 KiB {@link NumberedExcerpts} at about 2 MB/s, evenly, for {@code
 * millis}, to a queue with a reserve step of {@code step} bytes. Then prints "ahead B": how far the allocated blocks
 * run ahead of what was written, once they reach {@code expectAhead} bytes or 10 s have passed; then "mapped-ahead B":
 * how far the pages this process has mapped in its cycle files (their resident set, /proc/self/smaps) run ahead of
 * what was written, once they reach {@code expectMappedAhead} (a fifth argument, default 0) or 10 s have passed; then
 * "appended N", and closes the queue.
 */
public final class PacedAppender {
    private PacedAppender() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long step = Long.parseLong(args[1]);
        long millis = Long.parseLong(args[2]);
        long expectAhead = Long.parseLong(args[3]);
        long expectMappedAhead = args.length > 4 ? Long.parseLong(args[4]) : 0;
        long count = 0;
        try (MappedQueue queue = MappedQueue.builder(dir).reserveStep(step).build();
             ExcerptAppender appender = queue.createAppender()) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() < until) {
                try (WriteContext context = appender.writingDocument()) {
                    context.bytes().writeLong(count).writeLong(~count).writeBytes(new byte[1008]);
                }
                count++;
                LockSupport.parkNanos(500_000);
            }
            // The background reserves after the append that asked for it: wait for it, a bounded time.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long ahead = ahead(queue.diskUsage());
            while (ahead < expectAhead && System.nanoTime() < deadline) {
                LockSupport.parkNanos(5_000_000);
                ahead = ahead(queue.diskUsage());
            }
            System.out.println("ahead " + ahead);
            long mappedAhead = mappedAhead(dir, queue.diskUsage());
            while (mappedAhead < expectMappedAhead && System.nanoTime() < deadline) {
                LockSupport.parkNanos(5_000_000);
                mappedAhead = mappedAhead(dir, queue.diskUsage());
            }
            System.out.println("mapped-ahead " + mappedAhead);
        }
        System.out.println("appended " + count);
    }

    /** Resident bytes of this process's mappings of the queue's cycle files, less the bytes written. */
    private static long mappedAhead(Path dir, QueueDiskUsage usage) {
        long resident = 0;
        boolean cycleFile = false;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    cycleFile = line.contains(dir.toString()) && line.endsWith(".cq4");
                } else if (cycleFile && line.startsWith("Rss:")) {
                    resident += Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return resident - usage.writtenBytes();
    }

    private static long ahead(QueueDiskUsage usage) {
        return usage.allocatedBytes() - usage.writtenBytes();
    }
}
