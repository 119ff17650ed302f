package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: follows a queue with the named tailer {@code name} while another process writes it, until it has
 * read {@code total} excerpts or a minute passed; checks that excerpt {@code n} starts with {@code n} and is
 * {@code length} bytes long, and prints how many it read and the first one that was wrong, if any.
 */
public final class FollowingReader {
    private FollowingReader() {
    }

    public static void main(String[] args) {
        long total = Long.parseLong(args[2]);
        int length = Integer.parseInt(args[3]);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        long read = 0;
        String wrong = "none";
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
             ExcerptTailer tailer = queue.createTailer(args[1])) {
            System.out.println("following");
            while (read < total && System.nanoTime() < deadline) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                        continue;
                    }
                    long sequence = context.bytes().readLong();
                    if ("none".equals(wrong) && (sequence != read || context.bytes().length() != length)) {
                        wrong = "excerpt " + read + " holds " + sequence + " in " + context.bytes().length()
                                + " bytes";
                    }
                }
                read++;
            }
        }
        System.out.println("read=" + read + " wrong=" + wrong);
    }
}
