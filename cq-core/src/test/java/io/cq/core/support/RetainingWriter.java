package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Child-JVM main: writes {@code cycles} MINUTELY cycles of {@code perCycle} excerpts of {@code length} bytes (each
 * starting with its sequence number in the queue) to a queue that keeps {@code retain} cycles, and one excerpt in the
 * minute after, so that every one of those cycles is finished; then closes the queue and prints how many excerpts it
 * wrote. Retention keeps what a named tailer has not read.
 */
public final class RetainingWriter {
    private RetainingWriter() {
    }

    public static void main(String[] args) {
        int cycles = Integer.parseInt(args[1]);
        int perCycle = Integer.parseInt(args[2]);
        byte[] rest = new byte[Integer.parseInt(args[3]) - Long.BYTES];
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
        long written = 0;
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).rollCycle(RollCycle.MINUTELY).clock(clock)
                .retainCycles(Integer.parseInt(args[4])).diskSpaceWarning(0, 0).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int cycle = 0; cycle <= cycles; cycle++) {
                for (int i = 0; i < (cycle < cycles ? perCycle : 1); i++) {
                    long sequence = written;
                    appender.writeDocument(bytes -> bytes.writeLong(sequence).writeBytes(rest));
                    written++;
                }
                clock.advance(Duration.ofMinutes(1));
            }
        }
        System.out.println("written=" + written);
    }
}
