package io.cq.core;

import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.internal.system.NativeIo;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.DiskUsage;
import io.cq.core.support.FinishedCyclesWriter;
import io.cq.core.support.MutableClock;
import io.cq.core.support.QueueCheckingProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A finished cycle gives back the blocks of the index slots it never wrote (docs/file-format.md, "Unused index
 * space"): every byte of its file reads the same before and after, every excerpt is still found through the index,
 * and a small cycle keeps a few pages instead of two whole index blocks. Done on ext4 and xfs with native access
 * (the test JVM has it); on tmpfs a hole read through a mapping would take memory, so there nothing may change.
 */
class UnusedIndexSpaceTest {
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollCycle.class)
    void shouldGiveBackUnusedIndexSpaceOfFinishedCyclesWithoutChangingAByteTheyHold(RollCycle rollCycle)
            throws Exception {
        SplittableRandom random = new SplittableRandom(rollCycle.ordinal() * 7919L + 17);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
        Path queueDir = dir.resolve(rollCycle.name());
        int spacing = 16;
        // One excerpt; a few hundred; entries reaching a secondary block's second page; a second secondary block.
        long[] counts = {1, 2 + random.nextInt(300), 512L * spacing + 1 + random.nextInt(2000),
            (long) rollCycle.indexCount() * spacing + 1 + random.nextInt(3000)};
        List<List<byte[]>> written = new ArrayList<>();
        Map<Path, byte[]> before = new LinkedHashMap<>();
        Map<Path, Long> allocatedBefore = new LinkedHashMap<>();
        CountDownLatch gate = new CountDownLatch(1);
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(rollCycle).indexSpacing(spacing)
                .clock(clock).build(); ExcerptAppender appender = queue.createAppender()) {
            // On ext4 and xfs with native access; elsewhere (a tmpfs temporary directory) nothing may change.
            boolean givesBack = UnusedIndexSpace.appliesTo(queue.filesystem()) && NativeIo.canReserveBlocks();
            // The background thread waits behind this until every finished file has been read as it was written.
            BackgroundWork.submit(() -> awaitQuietly(gate));
            try {
                writeCycles(appender, clock, rollCycle, counts, random, written);
                for (Path file : cycleFiles(queueDir).subList(0, counts.length)) {
                    before.put(file, Files.readAllBytes(file));
                    allocatedBefore.put(file, DiskUsage.allocatedBytes(file));
                }
            } finally {
                gate.countDown();
            }
            BackgroundWork.drain();


            int c = 0;
            for (Map.Entry<Path, byte[]> file : before.entrySet()) {
                assertThat(Files.readAllBytes(file.getKey())).as("every byte of %s", file.getKey().getFileName())
                        .isEqualTo(file.getValue());
                long allocated = DiskUsage.allocatedBytes(file.getKey());
                long indexBlocks = 2L * rollCycle.indexCount() * Long.BYTES;
                assertThat(allocated).as("allocated bytes of %s", file.getKey().getFileName())
                        .isLessThanOrEqualTo(allocatedBefore.get(file.getKey()));
                if (!givesBack) {
                    assertThat(allocated).as("nothing given back on %s", queue.filesystem().type())
                            .isEqualTo(allocatedBefore.get(file.getKey()));
                } else if (counts[c] < 512L * spacing) {
                    // Entries all in the first page of the one secondary block: the header page, the page where the
                    // records start, that block's first page and its last, and the records.
                    long records = written.get(c).stream().mapToLong(p -> (p.length + 4 + 3) & -4).sum();
                    assertThat(allocated).as("allocated bytes of %s, %s excerpts", file.getKey().getFileName(),
                            counts[c]).isLessThanOrEqualTo(4 * PAGE + ((records + PAGE - 1) & -PAGE));
                    assertThat(allocatedBefore.get(file.getKey()) - allocated).as("given back")
                            .isGreaterThanOrEqualTo(indexBlocks - 4 * PAGE);
                }
                c++;
            }

            ExcerptTailer tailer = queue.createTailer();
            for (List<byte[]> cycle : written) {
                for (byte[] payload : cycle) {
                    assertThat(tailer.readBytes()).isEqualTo(payload);
                }
            }
            ExcerptTailer seeking = queue.createTailer();
            for (int cycle = 0; cycle < written.size(); cycle++) {
                long first = rollCycle.toIndex(rollCycle.toCycle(queue.firstIndex()) + cycle, 0);
                List<byte[]> payloads = written.get(cycle);
                for (int probe = 0; probe < 200; probe++) {
                    int sequence = random.nextInt(payloads.size());
                    assertThat(seeking.moveToIndex(first + sequence)).isTrue();
                    assertThat(seeking.readBytes()).as("excerpt %s of cycle %s", sequence, cycle)
                            .isEqualTo(payloads.get(sequence));
                }
                // Past a finished cycle's end the index reads slots that are holes now: nothing is there.
                assertThat(seeking.moveToIndex(first + payloads.size() + spacing * 600L)).isFalse();
                assertThat(seeking.moveToIndex(first + rollCycle.indexCount() * (long) rollCycle.indexCount()
                        * spacing - 1)).isFalse();
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    /** Writes {@code counts[c]} random excerpts into cycle {@code c}, then one into the cycle after the last. */
    private static void writeCycles(ExcerptAppender appender, MutableClock clock, RollCycle rollCycle, long[] counts,
                                    SplittableRandom random, List<List<byte[]>> written) {
        for (long count : counts) {
            List<byte[]> cycle = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                byte[] payload = new byte[1 + random.nextInt(120)];
                random.nextBytes(payload);
                appender.writeBytes(payload);
                cycle.add(payload);
            }
            written.add(cycle);
            clock.advance(Duration.ofMillis(rollCycle.lengthMillis()));
        }
        appender.writeText("the next cycle");
    }

    @Test
    void shouldKeepFinishedCyclesWholeAndReadableWithoutNativeAccess() throws Exception {
        // A plain java -jar: nothing can be punched, and nothing may be lost, warned about or crash.
        Path queueDir = dir.resolve("plain-java-jar");
        List<String> writer = ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "4", "100",
                "64");
        assertThat(writer).contains("written=401").noneMatch(line -> line.contains("restricted method")
                || line.contains("SIGBUS") || line.contains("InternalError"));
        for (Path file : cycleFiles(queueDir).subList(0, 4)) {
            assertThat(DiskUsage.allocatedBytes(file)).as("%s keeps its index whole", file.getFileName())
                    .isGreaterThanOrEqualTo(2L * RollCycle.MINUTELY.indexCount() * Long.BYTES);
        }
        assertThat(ChildJvm.runToEnd(false, QueueCheckingProcess.class, queueDir.toString(), "64", "past-the-end"))
                .contains("read=401 wrong=none intact=true", "found past the end=false");
    }

    @Test
    void shouldGiveBackUnusedIndexSpaceOnlyWhereAHoleReadsWithoutAllocating() {
        assertThat(UnusedIndexSpace.appliesTo(QueueFilesystem.ofType("ext4"))).isTrue();
        assertThat(UnusedIndexSpace.appliesTo(QueueFilesystem.ofType("xfs"))).isTrue();
        // On tmpfs a read fault on a hole allocates a page: on a full tmpfs, a reader would get SIGBUS.
        assertThat(UnusedIndexSpace.appliesTo(QueueFilesystem.ofType("tmpfs"))).isFalse();
        assertThat(UnusedIndexSpace.appliesTo(QueueFilesystem.ofType("nfs4"))).isFalse();
        assertThat(UnusedIndexSpace.appliesTo(QueueFilesystem.ofType(""))).isFalse();
    }

    private static void awaitQuietly(CountDownLatch gate) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Path> cycleFiles(Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cq4")).sorted().toList();
        }
    }
}
