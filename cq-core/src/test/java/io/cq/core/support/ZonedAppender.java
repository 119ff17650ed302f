package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Child-JVM main: opens the queue {@code args[0]} without naming a roll time, with its clock fixed at the instant
 * {@code args[1]}, appends the text {@code args[2]}, and prints "appended" with the calendar it found, the file name
 * of its cycle and the excerpt's index.
 */
public final class ZonedAppender {
    private ZonedAppender() {
    }

    public static void main(String[] args) throws Exception {
        Clock clock = Clock.fixed(Instant.parse(args[1]), ZoneOffset.UTC);
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            long index = appender.writeText(args[2]);
            long cycle = queue.rollCycle().toCycle(index);
            System.out.println("appended " + queue.cycleCalendar().rollTime() + " " + queue.cycleCalendar().zone()
                    + " " + queue.cycleCalendar().fileName(cycle) + " " + index);
        }
    }
}
