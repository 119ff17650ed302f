package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main on an async queue (args: directory, buffer directory, role, ...):
 * <ul>
 *   <li>{@code drain}: opens the queue, so this process drains its buffer, prints "ready" and waits to be killed;</li>
 *   <li>{@code write <writer> <count> <drain|nodrain>}: appends (writer, sequence, checksum) excerpts, printing
 *       "acked <sequence>" after every 100th and "done" at the end;</li>
 *   <li>{@code read <count>}: without draining, reads {@code count} excerpts and prints
 *       "read <count> <sum of sequences> <index of the last> <queue's last index>".</li>
 * </ul>
 */
public final class AsyncQueueProcess {
    private AsyncQueueProcess() {
    }

    public static MappedQueue open(Path dir, Path buffers, boolean drain) {
        return MappedQueue.builder(dir).asyncMode(true).asyncBufferDirectory(buffers).asyncBufferSize(1 << 20)
                .blockSize(1 << 20).asyncDrain(drain).writeLockCheckInterval(Duration.ofMillis(100)).build();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path buffers = Path.of(args[1]);
        switch (args[2]) {
            case "drain" -> {
                try (MappedQueue queue = open(dir, buffers, true)) {
                    System.out.println("ready " + queue.lastIndex());
                    LockSupport.parkNanos(Duration.ofMinutes(5).toNanos());
                }
            }
            case "append-and-close" -> {
                // Closes at once: the drainer thread may not have taken the drain lock yet.
                // The default buffer size: creating it takes the time in which the drainer thread starts.
                long index;
                MappedQueueBuilder builder = MappedQueue.builder(dir).asyncMode(true);
                if (!args[1].equals("default")) {
                    builder.asyncBufferDirectory(buffers);
                }
                try (MappedQueue queue = builder.build()) {
                    try (ExcerptAppender appender = queue.createAppender()) {
                        index = appender.writeText("appended just before the close");
                    }
                    try (ExcerptTailer tailer = queue.createTailer()) {
                        System.out.println("read " + tailer.readText());
                    }
                }
                System.out.println("closed " + index);
            }
            case "write" -> {
                int writer = Integer.parseInt(args[3]);
                int count = Integer.parseInt(args[4]);
                try (MappedQueue queue = open(dir, buffers, args[5].equals("drain"));
                     ExcerptAppender appender = queue.createAppender()) {
                    System.out.println("ready");
                    for (int i = 0; i < count; i++) {
                        try (WriteContext dc = appender.writingDocument()) {
                            dc.bytes().writeInt(writer).writeInt(i).writeLong(AppendingProcess.checksum(writer, i));
                        }
                        if (i % 100 == 99) {
                            System.out.println("acked " + i);
                        }
                    }
                }
                System.out.println("done");
            }
            case "read" -> {
                int count = Integer.parseInt(args[3]);
                try (MappedQueue queue = open(dir, buffers, false); ExcerptTailer tailer = queue.createTailer()) {
                    long sum = 0;
                    long last = -1;
                    for (int read = 0; read < count; ) {
                        try (ReadContext dc = tailer.readingDocument()) {
                            if (!dc.isPresent()) {
                                Thread.onSpinWait();
                                continue;
                            }
                            dc.bytes().readInt();
                            sum += dc.bytes().readInt();
                            last = dc.index();
                            read++;
                        }
                    }
                    System.out.println("read " + count + " " + sum + " " + last + " " + queue.lastIndex());
                }
            }
            default -> throw new IllegalArgumentException(args[2]);
        }
    }
}
