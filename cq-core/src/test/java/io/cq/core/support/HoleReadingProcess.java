package io.cq.core.support;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;

import java.nio.file.Path;

/**
 * Child-JVM main: reads a queue read-only, every excerpt in order (excerpt {@code n} must start with {@code n} and be
 * {@code length} bytes long), then asks every cycle for excerpts past its end, which makes the index read slots that
 * were never written (holes, in a finished cycle whose unused index space was given back). Prints what it read.
 */
public final class HoleReadingProcess {
    private HoleReadingProcess() {
    }

    public static void main(String[] args) {
        int length = Integer.parseInt(args[1]);
        long read = 0;
        String wrong = "none";
        boolean foundPastTheEnd = false;
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        break;
                    }
                    long sequence = context.bytes().readLong();
                    if ((sequence != read || context.bytes().length() != length) && "none".equals(wrong)) {
                        wrong = "excerpt " + read + " holds " + sequence + " in " + context.bytes().length() + " bytes";
                    }
                    read++;
                }
            }
            RollCycle rollCycle = queue.rollCycle();
            long lastSequence = (1L << rollCycle.sequenceBits()) - 1;
            for (long cycle : queue.cycles()) {
                for (long sequence : new long[] {5_000, 100_000, lastSequence}) {
                    foundPastTheEnd |= tailer.moveToIndex(rollCycle.toIndex(cycle, sequence));
                }
            }
            System.out.println("read=" + read + " wrong=" + wrong + " pastTheEnd=" + foundPastTheEnd + " intact="
                    + queue.verify().isIntact());
        }
    }
}
