package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

import java.nio.file.Path;

/**
 * Child-JVM main: what a new process does on its way to its first excerpt (a new queue, double-buffered when the
 * second argument says {@code true}, an appender, 40 bytes), then prints "appended", before it closes anything.
 */
public final class FirstAppendProcess {
    private FirstAppendProcess() {
    }

    public static void main(String[] args) {
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0]))
                .doubleBuffer(args.length > 1 && Boolean.parseBoolean(args[1])).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeBytes(new byte[40]);
            System.out.println("appended");
        }
    }
}
