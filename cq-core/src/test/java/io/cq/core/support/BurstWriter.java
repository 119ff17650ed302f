package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Child-JVM main: a burst of virtual threads, each appending one excerpt to a queue at once, as a web service with
 * virtual threads does in a spike; then prints "done F M" (F appends failed, the burst took M ms). Arguments: the
 * queue's directory, {@code bound} (each thread's {@code acquireAppender()}) or {@code owned} (each thread makes,
 * uses and closes an appender, with no other appender of the process open), and the number of threads.
 */
public final class BurstWriter {
    private BurstWriter() {
    }

    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        boolean threadBound = args[1].equals("bound");
        int threads = Integer.parseInt(args[2]);
        AtomicInteger failed = new AtomicInteger();
        try (MappedQueue queue = MappedQueue.builder(directory).build()) {
            long start = System.nanoTime();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < threads; i++) {
                    String text = "burst " + i;
                    executor.submit(() -> {
                        try {
                            if (threadBound) {
                                queue.acquireAppender().writeText(text);
                            } else {
                                try (ExcerptAppender appender = queue.createAppender()) {
                                    appender.writeText(text);
                                }
                            }
                        } catch (RuntimeException e) {
                            if (failed.getAndIncrement() == 0) {
                                e.printStackTrace(System.out);
                            }
                        }
                    });
                }
            }
            System.out.println("done " + failed.get() + " " + (System.nanoTime() - start) / 1_000_000);
        }
    }
}
