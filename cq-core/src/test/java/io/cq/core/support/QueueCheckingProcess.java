package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;

import java.nio.file.Path;

/**
 * Child-JVM main: reads a queue read-only from the start and checks that excerpt {@code n} starts with {@code n}
 * and is {@code length} bytes long; prints how many it read and the first one that was wrong, if any.
 */
public final class QueueCheckingProcess {
    private QueueCheckingProcess() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int length = Integer.parseInt(args[1]);
        long read = 0;
        String wrong = "none";
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        break;
                    }
                    long sequence = context.bytes().readLong();
                    if ((sequence != read || context.bytes().length() != length) && "none".equals(wrong)) {
                        wrong = "excerpt " + read + " holds " + sequence + " in " + context.bytes().length()
                                + " bytes";
                    }
                    read++;
                }
            }
            System.out.println("read=" + read + " wrong=" + wrong + " intact=" + queue.verify().isIntact());
        }
    }
}
