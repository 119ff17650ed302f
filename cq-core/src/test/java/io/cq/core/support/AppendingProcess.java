package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: appends {@code count} excerpts of (writer id, sequence, checksum) to a queue, once the file
 * {@code go} exists (so several children start together), then prints "done". A fifth argument
 * {@code double-buffer} opens the queue with double-buffered writes.
 */
public final class AppendingProcess {
    private AppendingProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int writer = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        Path go = Path.of(args[3]);
        boolean doubleBuffer = args.length > 4 && args[4].equals("double-buffer");
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).doubleBuffer(doubleBuffer).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            System.out.println("ready " + ProcessHandle.current().pid());
            while (!Files.exists(go)) {
                LockSupport.parkNanos(1_000_000);
            }
            for (int i = 0; i < count; i++) {
                try (WriteContext dc = appender.writingDocument()) {
                    dc.bytes().writeInt(writer).writeInt(i).writeLong(checksum(writer, i));
                }
            }
        }
        System.out.println("done");
    }

    public static long checksum(int writer, int sequence) {
        long x = (long) writer << 32 | (sequence & 0xFFFF_FFFFL);
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        return x ^ x >>> 33;
    }
}
