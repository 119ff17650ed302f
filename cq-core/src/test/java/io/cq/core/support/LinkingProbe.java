package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;
import io.cq.core.internal.os.NativeAccess;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Child-JVM main: says whether the native functions are linked before and after a queue opens, appends {@code count}
 * excerpts (the value of each is its number), says whether they got linked while it appended and whether blocks are
 * reserved with them, and closes the queue.
 */
public final class LinkingProbe {
    private LinkingProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        System.out.println("before-open " + NativeAccess.isReady());
        MappedQueue.warmUp();
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            System.out.println("after-open " + NativeAccess.isReady());
            for (long i = 0; i < count; i++) {
                try (WriteContext context = appender.writingDocument()) {
                    context.bytes().writeLong(i).writeLong(~i);
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!NativeAccess.isReady() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.println("linked " + NativeAccess.isReady() + " reserves " + NativeAccess.canReserveBlocksNow());
        }
        System.out.println("closed");
    }
}
