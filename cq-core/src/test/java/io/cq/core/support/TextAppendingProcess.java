package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

import java.nio.file.Path;

/** Child-JVM main: appends texts {@code prefix-0} to {@code prefix-(count-1)} to a queue and closes it. */
public final class TextAppendingProcess {
    private TextAppendingProcess() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        String prefix = args[1];
        int count = Integer.parseInt(args[2]);
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < count; i++) {
                appender.writeText(prefix + "-" + i);
            }
        }
        System.out.println("closed");
    }
}
