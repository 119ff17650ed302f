package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;

import java.nio.file.Path;

/**
 * Child-JVM main: reads a queue read-only from the start and checks that excerpt {@code n} starts with {@code n}
 * and is {@code length} bytes long; prints how many it read and the first one that was wrong, if any. With a third
 * argument {@code past-the-end}, it then asks every cycle for excerpts past its end, which makes the index read slots
 * never written (holes, in a finished cycle that gave back its unused index space), and prints whether any was found.
 */
public final class QueueCheckingProcess {
    private QueueCheckingProcess() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int length = Integer.parseInt(args[1]);
        boolean pastTheEnd = args.length > 2 && args[2].equals("past-the-end");
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
            if (pastTheEnd) {
                RollCycle rollCycle = queue.rollCycle();
                long lastSequence = (1L << rollCycle.sequenceBits()) - 1;
                boolean found = false;
                for (long cycle : queue.cycles()) {
                    for (long sequence : new long[] {5_000, 100_000, lastSequence}) {
                        found |= tailer.moveToIndex(rollCycle.toIndex(cycle, sequence));
                    }
                }
                System.out.println("found past the end=" + found);
            }
        }
    }
}
