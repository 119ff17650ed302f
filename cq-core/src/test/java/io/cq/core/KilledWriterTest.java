package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.Excerpts;
import io.cq.core.support.LockWordWatch;
import io.cq.core.support.SteadyWriter;
import io.cq.core.support.VictimWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writer JVMs killed with kill -9 again and again, often in the middle of an excerpt while they hold the write lock,
 * while a steady writer JVM keeps appending and this JVM keeps tailing. Every JVM runs as {@code java -jar} would,
 * without native access or any other flag for cq.
 *
 * <p>8 kills by default (a victim spends two thirds of its time inside an excerpt, so most kills land there);
 * {@code -Psoak} kills 20 times and {@code -Pkill-loop} 10,000 times, two victims at a time (docs/testing.md, "Longer
 * runs of cq's own tests"). {@code -Dcq.soak.kills=N}, {@code -Dcq.kill.victims=N} and {@code -Dcq.kill.seed=S}
 * change the run. The longest the steady writer waited for the lock, which is how long a dead holder held the queue
 * up, is printed; {@code -Dcq.kill.maxRecoveryMillis=M} (set by the kill-loop profile) fails the run above M.
 */
class KilledWriterTest {
    private static final int KILLS = Integer.getInteger("cq.soak.kills", 8);
    private static final int VICTIMS_AT_ONCE = Integer.getInteger("cq.kill.victims", 1);
    private static final long SEED = Long.getLong("cq.kill.seed", 20261122);
    private static final long MAX_RECOVERY_MILLIS = Long.getLong("cq.kill.maxRecoveryMillis", 0);
    /** Victims live 10 ms plus up to this long after they said they are ready; shorter in long loops. */
    private static final int KILL_WINDOW_MILLIS = KILLS > 100 ? 60 : 200;
    private static final int STEADY_WRITER = 1;
    private static final int VICTIM_NICENESS = 10;
    private static final int FIRST_VICTIM = 100;

    @TempDir
    Path dir;

    @Test
    void shouldLoseNoCompleteExcerptAndShowNoTornOneWhenWritersAreKilled() throws Exception {
        Path queueDir = dir.resolve("queue");
        Map<Integer, Integer> nextSequence = new HashMap<>();
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        AtomicInteger steadyCount = new AtomicInteger(-1);
        long longestWaitMicros;
        List<Long> recoveries = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(queueDir).blockSize(1 << 20).build();
             ChildJvm steady = ChildJvm.start(false, List.of(), SteadyWriter.class, queueDir.toString(),
                     Integer.toString(STEADY_WRITER), "300")) {
            steady.awaitLine("ready", 60, TimeUnit.SECONDS);
            Thread reader = Thread.ofPlatform().name("checking-tailer").start(() -> {
                try {
                    tailAndCheck(queue.createTailer(), nextSequence, steadyCount);
                } catch (Throwable e) {
                    readerFailure.set(e);
                }
            });
            killVictims(queue, queueDir, new Random(SEED), recoveries);
            // The steady writer appended all along; what it says it wrote is what the tailer must have read.
            steady.send("stop");
            String[] done = steady.awaitLine("done ", 60, TimeUnit.SECONDS).split(" ");
            longestWaitMicros = Long.parseLong(done[2]);
            steadyCount.set(Integer.parseInt(done[1]));
            reader.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(reader.isAlive()).as("tailer still running").isFalse();
            assertThat(readerFailure.get()).isNull();
            QueueVerification verification = queue.verify();
            assertThat(verification.findings()).as("verify after %d kills", KILLS).isEmpty();
            assertThat(verification.excerptsChecked()).isEqualTo(nextSequence.values().stream()
                    .mapToLong(Integer::longValue).sum());
        }
        long worstRecovery = recoveries.stream().mapToLong(Long::longValue).max().orElse(0);
        long medianRecovery = recoveries.stream().sorted().skip(recoveries.size() / 2).findFirst().orElse(0L);
        System.out.printf("KilledWriterTest: %d kills, %d of them holding the write lock; %d writers seen, %d "
                + "excerpts; a dead holder kept the lock at most %.1f ms (median %.1f ms); the steady writer waited "
                + "at most %.1f ms for it%n", KILLS, recoveries.size(), nextSequence.size(), nextSequence.values()
                .stream().mapToLong(Integer::longValue).sum(), worstRecovery / 1e6, medianRecovery / 1e6,
                longestWaitMicros / 1000.0);
        assertThat(steadyCount.get()).as("excerpts of the steady writer").isPositive();
        assertThat(nextSequence.get(STEADY_WRITER)).isEqualTo(steadyCount.get());
        assertThat(nextSequence.keySet()).as("writers seen").hasSizeGreaterThan(KILLS / 2);
        if (MAX_RECOVERY_MILLIS > 0) {
            assertThat(worstRecovery).as("longest a dead holder kept the lock, ns")
                    .isLessThan(TimeUnit.MILLISECONDS.toNanos(MAX_RECOVERY_MILLIS));
        }
    }

    /**
     * Starts victims a few at a time and kills each at a random moment of its loop; for each that died holding the
     * write lock, adds how long it kept it (from its death until another writer took the lock over) to
     * {@code recoveries}.
     */
    private static void killVictims(MappedQueue queue, Path queueDir, Random random, List<Long> recoveries)
            throws Exception {
        try (LockWordWatch watch = new LockWordWatch(queueDir)) {
            for (int kill = 0; kill < KILLS; kill += VICTIMS_AT_ONCE) {
                List<ChildJvm> victims = new ArrayList<>();
                try {
                    for (int v = 0; v < VICTIMS_AT_ONCE && kill + v < KILLS; v++) {
                        // At a lower priority: two JVMs starting up at every kill, the whole run long, would take
                        // the CPU from the writer that takes the lock over, and the wait measured would be the
                        // scheduler's rather than cq's.
                        victims.add(ChildJvm.start(VICTIM_NICENESS, false, List.of(), VictimWriter.class,
                                queueDir.toString(), Integer.toString(FIRST_VICTIM + kill + v)));
                    }
                    for (ChildJvm victim : victims) {
                        victim.awaitLine("ready", 60, TimeUnit.SECONDS);
                    }
                    for (ChildJvm victim : victims) {
                        int slot = slotOf(queue, victim.pid());
                        // A random moment, not a condition: where in its loop the victim is when it dies is the point.
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10 + random.nextInt(KILL_WINDOW_MILLIS)));
                        victim.kill();
                        if (watch.holderSlot() == slot) {
                            recoveries.add(watch.nanosUntilReleasedBy(slot, 60));
                        }
                    }
                } finally {
                    for (ChildJvm victim : victims) {
                        victim.close();
                    }
                }
            }
        }
    }

    private static int slotOf(MappedQueue queue, long pid) {
        return queue.writerProcesses().stream().filter(writer -> writer.pid() == pid).findFirst()
                .orElseThrow(() -> new AssertionError("victim " + pid + " holds no process slot"))
                .processSlot();
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
