package io.cq.samples.quickstart;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;
import io.cq.core.idle.IdleStrategy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The first program to run: opens a queue under {@code ./data/quickstart}, appends a few orders, reads them with
 * a named tailer that resumes where the previous run stopped, then tails a second thread's appends live.
 * Run it twice to see the named tailer resume.
 */
public final class QuickstartMain {
    private QuickstartMain() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : "data/quickstart");
        try (MappedQueue queue = MappedQueue.builder(directory).rollCycle(RollCycle.DAILY).build();
             ExcerptAppender appender = queue.createAppender()) {
            System.out.printf("queue %s (%s cycles), %d excerpts so far%n", directory.toAbsolutePath(),
                    queue.rollCycle(),
                    queue.lastIndex() < 0 ? 0 : queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1));

            for (int i = 1; i <= 3; i++) {
                appendOrder(appender, "AAPL", 100 * i, 189.25 + i);
                System.out.printf("appended order %d at index 0x%x%n", i, appender.lastIndexAppended());
            }

            try (ExcerptTailer tailer = queue.createTailer("quickstart")) {
                System.out.printf("named tailer 'quickstart' resumes at index 0x%x (%d excerpts to catch up)%n",
                        tailer.index(), tailer.lag());
                int read = 0;
                while (true) {
                    try (ReadContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent()) {
                            break;
                        }
                        System.out.printf("  read 0x%x: %s%n", dc.index(), describeOrder(dc));
                        read++;
                    }
                }
                System.out.printf("caught up after %d excerpts; next run resumes after index 0x%x%n", read,
                        queue.lastIndex());
            }

            tailLive(queue);
            System.out.printf("done: excerpts 0x%x to 0x%x are in %s%n", queue.firstIndex(), queue.lastIndex(),
                    directory.toAbsolutePath());
        }
    }

    /** One order: symbol, quantity, price. The excerpt's bytes are written straight into the mapped file. */
    private static void appendOrder(ExcerptAppender appender, String symbol, int quantity, double price) {
        try (WriteContext order = appender.writingDocument()) {
            order.bytes().writeUtf8(symbol).writeInt(quantity).writeDouble(price);
        }
    }

    private static String describeOrder(ReadContext order) {
        return String.format("%s %d @ %.2f", order.bytes().readUtf8(), order.bytes().readInt(),
                order.bytes().readDouble());
    }

    /** A second thread appends while this one tails from the end, waiting with a back-off idle strategy. */
    private static void tailLive(MappedQueue queue) throws InterruptedException {
        ExcerptTailer tailer = queue.createTailer().toEnd();
        int count = 5;
        Thread producer = Thread.ofPlatform().name("producer").start(() -> {
            try (ExcerptAppender appender = queue.createAppender()) {
                for (int i = 0; i < count; i++) {
                    appendOrder(appender, "MSFT", 10 + i, 415.5 + i);
                    try {
                        TimeUnit.MILLISECONDS.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        });
        IdleStrategy idle = IdleStrategy.backoff();
        for (int received = 0; received < count; ) {
            try (ReadContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    idle.idle();
                    continue;
                }
                idle.reset();
                System.out.printf("  live 0x%x at %s: %s%n", dc.index(), Instant.now(), describeOrder(dc));
                received++;
            }
        }
        producer.join();
    }
}
