package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.TailerDirection;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Child-JVM main: a MINUTELY queue keeping two cycles, on a small file system. Writes about 6 MiB in the first minute,
 * writes in the second until an append is refused, fills the rest of the disk with {@code filler}, then writes one
 * excerpt in the third minute: its file fits only once retention deletes the first minute's. Prints how the disk-full
 * append was refused, the cycles left and the last excerpt read back. Run with and without native access.
 */
public final class RetentionOnFullDiskProcess {
    private RetentionOnFullDiskProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path filler = Path.of(args[1]);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        byte[] kilobyte = new byte[1024];
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.MINUTELY).clock(clock)
                .retainCycles(2).diskSpaceWarning(0, 0).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 6_000; i++) {
                appender.writeBytes(kilobyte); // the first minute: about 6 MiB
            }
            clock.advance(Duration.ofMinutes(1));
            Throwable refusal = null;
            while (refusal == null) {
                try {
                    appender.writeBytes(kilobyte); // the second minute, until the disk is full
                } catch (Throwable e) {
                    refusal = e;
                }
            }
            System.out.println("refusal=" + refusal.getClass().getName());
            FullDisk.fillTheRest(filler);
            clock.advance(Duration.ofMinutes(1));

            appender.writeText("in the third minute");

            System.out.println("cycles=" + queue.cycles().size());
            try (ExcerptTailer tailer = queue.createTailer()) {
                tailer.direction(TailerDirection.BACKWARD).toEnd();
                System.out.println("last=" + tailer.readText());
            }
        }
    }
}
