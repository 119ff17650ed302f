package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;

import java.time.Duration;
import java.time.Instant;

/**
 * Child-JVM main: writes {@code cycles} cycles (MINUTELY, or the roll cycle named by a fifth argument) of
 * {@code perCycle} excerpts of {@code length} bytes, each starting with its sequence number in the queue, and one more
 * excerpt in the cycle after, so that every one of those cycles is finished; then closes the queue and prints how
 * many excerpts it wrote. A sixth argument keeps that many cycles (retention, which keeps what a named tailer has not
 * read); without it, every cycle is kept.
 */
public final class FinishedCyclesWriter {
    private FinishedCyclesWriter() {
    }

    public static void main(String[] args) {
        int cycles = Integer.parseInt(args[1]);
        int perCycle = Integer.parseInt(args[2]);
        byte[] rest = new byte[Integer.parseInt(args[3]) - Long.BYTES];
        RollCycle rollCycle = args.length > 4 ? RollCycle.valueOf(args[4]) : RollCycle.MINUTELY;
        int retainCycles = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
        long written = 0;
        try (MappedQueue queue = MappedQueue.builder(java.nio.file.Path.of(args[0])).rollCycle(rollCycle)
                .clock(clock).retainCycles(retainCycles).diskSpaceWarning(0, 0).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int cycle = 0; cycle <= cycles; cycle++) {
                for (int i = 0; i < (cycle < cycles ? perCycle : 1); i++) {
                    long sequence = written;
                    appender.writeDocument(bytes -> bytes.writeLong(sequence).writeBytes(rest));
                    written++;
                }
                clock.advance(Duration.ofMillis(rollCycle.lengthMillis()));
            }
        }
        System.out.println("written=" + written);
    }
}
