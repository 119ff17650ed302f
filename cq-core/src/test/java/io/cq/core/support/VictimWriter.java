package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: appends self-checking excerpts for ever, pausing in the middle of each one while holding the
 * write lock, so that a kill at a random moment often lands inside an excerpt.
 */
public final class VictimWriter {
    private VictimWriter() {
    }

    public static void main(String[] args) {
        int writer = Integer.parseInt(args[1]);
        MappedQueue queue = MappedQueue.builder(Path.of(args[0])).blockSize(1 << 20).build();
        ExcerptAppender appender = queue.acquireAppender();
        System.out.println("ready");
        for (int sequence = 0; ; sequence++) {
            try (WriteContext dc = appender.writingDocument()) {
                Excerpts.writeFirstHalf(dc.bytes(), writer, sequence);
                LockSupport.parkNanos(200_000);
                Excerpts.writeSecondHalf(dc.bytes(), writer, sequence);
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
