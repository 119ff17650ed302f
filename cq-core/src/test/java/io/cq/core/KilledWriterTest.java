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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A writer JVM killed with kill -9 again and again, often in the middle of an excerpt while it holds the write
 * lock, while a second writer JVM keeps appending and this JVM keeps tailing.
 *
 * <p>8 kills by default (a victim spends two thirds of its time inside an excerpt, so most kills land there);
 * {@code -Psoak} (docs/testing.md) kills 20 times, as {@code -Dcq.soak.kills=N} does.
 */
class KilledWriterTest {
    private static final int KILLS = Integer.getInteger("cq.soak.kills", 8);
    private static final int STEADY_WRITER = 1;

    @TempDir
    Path dir;

    @Test
    void shouldLoseNoCompleteExcerptAndShowNoTornOneWhenWritersAreKilled() throws Exception {
        Path queueDir = dir.resolve("queue");
        Map<Integer, Integer> nextSequence = new HashMap<>();
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        AtomicInteger steadyCount = new AtomicInteger(-1);
        try (MappedQueue queue = MappedQueue.builder(queueDir).blockSize(1 << 20).build();
             ChildJvm steady = ChildJvm.start(SteadyWriter.class, queueDir.toString(), Integer.toString(STEADY_WRITER),
                     "300")) {
            steady.awaitLine("ready", 60, TimeUnit.SECONDS);
            Thread reader = Thread.ofPlatform().name("checking-tailer").start(() -> {
                try {
                    tailAndCheck(queue.createTailer(), nextSequence, steadyCount);
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
            // The steady writer appended all along; what it says it wrote is what the tailer must have read.
            steady.send("stop");
            steadyCount.set(Integer.parseInt(steady.awaitLine("done ", 60, TimeUnit.SECONDS).substring(5)));
            reader.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(reader.isAlive()).as("tailer still running").isFalse();
        }
        assertThat(readerFailure.get()).isNull();
        assertThat(steadyCount.get()).as("excerpts of the steady writer").isPositive();
        assertThat(nextSequence.get(STEADY_WRITER)).isEqualTo(steadyCount.get());
        assertThat(nextSequence.keySet()).as("writers seen").hasSizeGreaterThan(KILLS / 2);
    }

    /**
     * Reads until the steady writer's count is known and all its excerpts were read; checks every excerpt whole and
     * each writer's order.
     */
    private static void tailAndCheck(ExcerptTailer tailer, Map<Integer, Integer> nextSequence,
                                     AtomicInteger steadyCount) {
        while (true) {
            try (ReadContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    int steady = steadyCount.get();
                    if (steady >= 0 && nextSequence.getOrDefault(STEADY_WRITER, 0) >= steady) {
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
