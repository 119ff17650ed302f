package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.Excerpts;
import io.cq.core.support.SteadyWriter;
import io.cq.core.support.VictimWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A writer JVM killed with kill -9 again and again, often in the middle of an excerpt while it holds the write
 * lock, while a second writer JVM keeps appending and this JVM keeps tailing.
 */
class KilledWriterTest {
    private static final int KILLS = 20;
    private static final int STEADY_WRITER = 1;
    private static final int STEADY_COUNT = 20_000;

    @TempDir
    Path dir;

    @Test
    void shouldLoseNoCompleteExcerptAndShowNoTornOneWhenWritersAreKilled() throws Exception {
        Path queueDir = dir.resolve("queue");
        Map<Integer, Integer> nextSequence = new HashMap<>();
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (MappedQueue queue = MappedQueue.builder(queueDir).blockSize(1 << 20).build();
             ChildJvm steady = ChildJvm.start(SteadyWriter.class, queueDir.toString(), Integer.toString(STEADY_WRITER),
                     Integer.toString(STEADY_COUNT), "300")) {
            steady.awaitLine("ready", 60, TimeUnit.SECONDS);
            Thread reader = Thread.ofPlatform().name("checking-tailer").start(() -> {
                try {
                    tailAndCheck(queue.createTailer(), nextSequence, stop);
                } catch (Throwable e) {
                    readerFailure.set(e);
                }
            });
            Random random = new Random(20261122);
            for (int kill = 0; kill < KILLS; kill++) {
                try (ChildJvm victim = ChildJvm.start(VictimWriter.class, queueDir.toString(),
                        Integer.toString(100 + kill))) {
                    victim.awaitLine("ready", 60, TimeUnit.SECONDS);
                    // A random moment, not a condition: where in its loop the victim is when it dies is the point.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20 + random.nextInt(200)));
                    victim.kill();
                }
            }
            steady.awaitLine("done", 300, TimeUnit.SECONDS);
            stop.set(true);
            reader.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(reader.isAlive()).as("tailer still running").isFalse();
        }
        assertThat(readerFailure.get()).isNull();
        assertThat(nextSequence.get(STEADY_WRITER)).isEqualTo(STEADY_COUNT);
        assertThat(nextSequence.keySet()).as("writers seen").hasSizeGreaterThan(KILLS / 2);
    }

    /** Reads until told to stop and then drained; checks every excerpt whole and each writer's order. */
    private static void tailAndCheck(ExcerptTailer tailer, Map<Integer, Integer> nextSequence, AtomicBoolean stop) {
        while (true) {
            try (ReadContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    if (stop.get() && nextSequence.getOrDefault(STEADY_WRITER, 0) >= STEADY_COUNT) {
                        return;
                    }
                    LockSupport.parkNanos(50_000);
                    continue;
                }
                long id = Excerpts.check(dc.bytes(), dc.index());
                int writer = (int) (id >>> 32);
                int sequence = (int) id;
                int expected = nextSequence.getOrDefault(writer, 0);
                if (sequence != expected) {
                    throw new AssertionError("writer " + writer + " excerpt " + sequence + " arrived where " + expected
                            + " was expected (index 0x" + Long.toHexString(dc.index()) + ")");
                }
                nextSequence.put(writer, expected + 1);
            }
        }
    }
}
