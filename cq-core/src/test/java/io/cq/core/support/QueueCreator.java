package io.cq.core.support;

import io.cq.core.MappedQueue;

import java.nio.file.Path;

/**
 * Child-JVM main: creates (or opens) a queue for writing, holds the named tailer {@code args[1]}, says "ready", and
 * keeps both until killed.
 */
public final class QueueCreator {
    private QueueCreator() {
    }

    public static void main(String[] args) throws Exception {
        MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
        queue.createTailer(args[1]);
        System.out.println("ready " + ProcessHandle.current().pid() + " " + queue.path());
        Thread.sleep(Long.MAX_VALUE);
    }
}
