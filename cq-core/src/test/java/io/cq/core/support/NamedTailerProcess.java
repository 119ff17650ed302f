package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;

import java.nio.file.Path;

/**
 * Child-JVM main: reads {@code count} excerpts with a named tailer, prints "holding", and keeps the tailer open
 * until killed.
 */
public final class NamedTailerProcess {
    private NamedTailerProcess() {
    }

    public static void main(String[] args) throws Exception {
        MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
        ExcerptTailer tailer = queue.createTailer(args[1]);
        int count = Integer.parseInt(args[2]);
        for (int i = 0; i < count; i++) {
            if (tailer.readText() == null) {
                throw new IllegalStateException("only " + i + " excerpts to read");
            }
        }
        System.out.println("holding " + ProcessHandle.current().pid());
        Thread.currentThread().join();
    }
}
