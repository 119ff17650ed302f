package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: one appender holds the write lock for {@code args[2]} ms while {@code args[1]} virtual threads wait
 * for it, each to append once; prints "done F", F being the appends that failed. What the waiters log goes to
 * standard error, for the parent to count.
 */
public final class LongHoldWithWaiters {
    private LongHoldWithWaiters() {
    }

    public static void main(String[] args) throws Exception {
        int waiters = Integer.parseInt(args[1]);
        long holdMillis = Long.parseLong(args[2]);
        AtomicInteger failed = new AtomicInteger();
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).writeLockTimeout(Duration.ofSeconds(30))
                .build();
             ExcerptAppender holder = queue.createAppender()) {
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                try (WriteContext held = holder.writingDocument()) {
                    held.bytes().writeInt(1);
                    for (int i = 0; i < waiters; i++) {
                        String text = "waiter " + i;
                        executor.submit(() -> {
                            try (ExcerptAppender appender = queue.createAppender()) {
                                appender.writeText(text);
                            } catch (RuntimeException e) {
                                failed.incrementAndGet();
                            }
                        });
                    }
                    LockSupport.parkNanos(holdMillis * 1_000_000);
                }
            }
        }
        System.out.println("done " + failed.get());
    }
}
