package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/** Child-JVM main: appends {@code count} self-checking excerpts at a steady pace, then prints "done". */
public final class SteadyWriter {
    private SteadyWriter() {
    }

    public static void main(String[] args) {
        int writer = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        long pauseNanos = Long.parseLong(args[3]) * 1_000;
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).blockSize(1 << 20).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            System.out.println("ready");
            for (int sequence = 0; sequence < count; sequence++) {
                try (WriteContext dc = appender.writingDocument()) {
                    Excerpts.writeFirstHalf(dc.bytes(), writer, sequence);
                    Excerpts.writeSecondHalf(dc.bytes(), writer, sequence);
                }
                LockSupport.parkNanos(pauseNanos);
            }
        }
        System.out.println("done");
    }
}
