package io.cq.core;

import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.os.NativeAccess;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.DiskUsage;
import io.cq.core.support.FinishedCyclesWriter;
import io.cq.core.support.FollowingReader;
import io.cq.core.support.MutableClock;
import io.cq.core.support.QueueCheckingProcess;
import io.cq.core.support.WrittenWhole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A finished cycle gives back the blocks of the index slots it never wrote (docs/file-format.md, "Unused index
 * space"): every byte of its file reads the same before and after, every excerpt is still found through the index,
 * and a small cycle keeps a few pages instead of two whole index blocks. Done on ext4 and xfs: with native access (the
 * test JVM has it) by punching holes, without it (child JVMs) by putting a sparse copy in a small cycle's place; on
 * tmpfs a hole read through a mapping would take memory, so there nothing may change.
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
            boolean givesBack = UnusedIndexSpace.appliesTo(queue.filesystem()) && NativeAccess.canReserveBlocks();
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
    void shouldGiveBackTheUnusedIndexSpaceOfSmallFinishedCyclesWithoutNativeAccess() throws Exception {
        // A plain java -jar cannot punch holes: a small finished cycle is copied without its unused index ranges and
        // the copy put in its place. Nothing may be lost, warned about or crash, and lookups past the end find nothing.
        Path queueDir = dir.resolve("plain-java-jar");
        List<String> writer = ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "4", "100",
                "64");
        assertThat(writer).contains("written=401").noneMatch(line -> line.contains("restricted method")
                || line.contains("SIGBUS") || line.contains("InternalError") || line.contains("WARN"));
        long records = 100 * (64 + 4);
        boolean givesBack = givesBackOn(queueDir);
        for (Path file : cycleFiles(queueDir).subList(0, 4)) {
            if (givesBack) {
                assertThat(DiskUsage.allocatedBytes(file)).as("%s without its unused index blocks", file.getFileName())
                        .isLessThanOrEqualTo(4 * PAGE + ((records + PAGE - 1) & -PAGE));
            } else {
                assertThat(DiskUsage.allocatedBytes(file)).as("%s keeps its index on this file system", file)
                        .isGreaterThanOrEqualTo(2L * RollCycle.MINUTELY.indexCount() * Long.BYTES);
            }
        }
        assertThat(queueDir).isDirectoryNotContaining("glob:**.sparse.tmp");
        assertThat(ChildJvm.runToEnd(false, QueueCheckingProcess.class, queueDir.toString(), "64", "past-the-end"))
                .contains("read=401 wrong=none intact=true", "found past the end=false");
    }

    @Test
    void shouldLoseNoExcerptForATailerInAnotherProcessWhileCyclesAreCopiedSparseAndRetentionDeletes()
            throws Exception {
        // Processes without native access: a writer keeping two cycles finishes forty small ones, each copied sparse
        // and renamed over while a reader in another process may have it open; retention deletes what the reader's
        // named tailer has read, under the lock the renames take.
        Path queueDir = dir.resolve("followed");
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.MINUTELY).build()) {
            // Named before anything is written: retention keeps what it has not read.
            queue.createTailer("reader").close();
        }
        int cycles = 40;
        int perCycle = 150;
        long total = (long) cycles * perCycle + 1;
        try (ChildJvm reader = ChildJvm.start(false, List.of(), FollowingReader.class, queueDir.toString(), "reader",
                String.valueOf(total), "72")) {
            reader.awaitLine("following", 30, TimeUnit.SECONDS);
            List<String> writer = ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(),
                    String.valueOf(cycles), String.valueOf(perCycle), "72", "MINUTELY", "2");
            assertThat(writer).contains("written=" + total).noneMatch(line -> line.contains("WARN")
                    || line.contains("Exception"));
            assertThat(reader.awaitLine("read=", 60, TimeUnit.SECONDS)).isEqualTo("read=" + total + " wrong=none");
            assertThat(reader.awaitExit(30, TimeUnit.SECONDS)).isZero();
            assertThat(reader.transcript()).doesNotContain("WARN", "Exception");
        }
        assertThat(queueDir).isDirectoryNotContaining("glob:**.sparse.tmp");
        List<Path> left = cycleFiles(queueDir);
        // Retention runs at a roll and keeps what the reader had not read by then: how many are left depends on how
        // far behind it was at the writer's last roll, not on the copies.
        assertThat(left.size()).as("cycles kept by retention").isLessThan(cycles);
        if (givesBackOn(queueDir)) {
            long records = perCycle * (72 + 4);
            for (Path file : left.subList(0, left.size() - 1)) {
                assertThat(DiskUsage.allocatedBytes(file)).as("%s without its unused index blocks", file)
                        .isLessThanOrEqualTo(4 * PAGE + ((records + PAGE - 1) & -PAGE));
            }
        }
    }

    @Test
    void shouldKeepTheIndexOfAFinishedCycleWhoseRecordsOutweighItWithoutNativeAccess() throws Exception {
        // 5,000 records of 64 B are 340 KB: more than four times the unused index, so copying is not worth it.
        Path queueDir = dir.resolve("plain-java-jar-large");
        Path finished = oneFinishedCycleWithoutNativeAccess(queueDir, 5000, 64);
        assertThat(UnusedIndexSpace.sparseCopy(finished)).isNull();
        assertThat(DiskUsage.allocatedBytes(finished)).as("%s keeps its index", finished.getFileName())
                .isGreaterThanOrEqualTo(2L * RollCycle.MINUTELY.indexCount() * Long.BYTES);
        assertThat(queueDir).isDirectoryNotContaining("glob:**.sparse.tmp");
    }

    @Test
    void shouldPutASparseCopyOfAFinishedCycleInItsPlaceWhileATailerReadsIt() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5_9A25EL);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T12:00:00Z"));
        Path queueDir = dir.resolve("copied");
        long[] counts = {1 + random.nextInt(50), 100 + random.nextInt(400), 1 + random.nextInt(900)};
        List<List<byte[]>> written = new ArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.DAILY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            // Held back, so that no hole is punched in place before the copies are made.
            BackgroundWork.submit(() -> awaitQuietly(gate));
            try {
                writeCycles(appender, clock, RollCycle.DAILY, counts, random, written);
                ExcerptTailer early = queue.createTailer();
                int readEarly = (int) (counts[0] / 2);
                for (int i = 0; i < readEarly; i++) {
                    assertThat(early.readBytes()).isEqualTo(written.getFirst().get(i));
                }
                int c = 0;
                for (Path file : cycleFiles(queueDir).subList(0, counts.length)) {
                    byte[] before = Files.readAllBytes(file);
                    long allocatedBefore = DiskUsage.allocatedBytes(file);
                    Object inode = Files.getAttribute(file, "unix:ino");
                    UnusedIndexSpace.SparseCopy copy = UnusedIndexSpace.sparseCopy(file);
                    assertThat(copy).as("copy of %s", file.getFileName()).isNotNull();
                    assertThat(UnusedIndexSpace.replace(copy)).isTrue();
                    UnusedIndexSpace.discard(copy);

                    assertThat(Files.getAttribute(file, "unix:ino")).as("a new file").isNotEqualTo(inode);
                    assertThat(Files.readAllBytes(file)).as("every byte of %s", file.getFileName()).isEqualTo(before);
                    long records = written.get(c).stream().mapToLong(p -> (p.length + 4 + 3) & -4).sum();
                    assertThat(DiskUsage.allocatedBytes(file)).as("allocated bytes of %s", file.getFileName())
                            .isLessThanOrEqualTo(4 * PAGE + ((records + PAGE - 1) & -PAGE))
                            .isLessThan(allocatedBefore - RollCycle.DAILY.indexCount() * Long.BYTES);
                    c++;
                }
                assertThat(queueDir).isDirectoryNotContaining("glob:**.sparse.tmp");
                // The tailer that had the first file open reads on in it, then in the files that replaced the others.
                for (int cycle = 0; cycle < written.size(); cycle++) {
                    for (int i = cycle == 0 ? readEarly : 0; i < written.get(cycle).size(); i++) {
                        assertThat(early.readBytes()).isEqualTo(written.get(cycle).get(i));
                    }
                }
                assertThat(early.readText()).isEqualTo("the next cycle");
            } finally {
                gate.countDown();
            }
            BackgroundWork.drain();
            ExcerptTailer seeking = queue.createTailer();
            for (int cycle = 0; cycle < written.size(); cycle++) {
                long first = RollCycle.DAILY.toIndex(RollCycle.DAILY.toCycle(queue.firstIndex()) + cycle, 0);
                List<byte[]> payloads = written.get(cycle);
                for (int probe = 0; probe < 100; probe++) {
                    int sequence = random.nextInt(payloads.size());
                    assertThat(seeking.moveToIndex(first + sequence)).isTrue();
                    assertThat(seeking.readBytes()).isEqualTo(payloads.get(sequence));
                }
                assertThat(seeking.moveToIndex(first + payloads.size() + 16 * 600L)).isFalse();
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldNotPutASparseCopyInPlaceOfAFileDeletedOrReplacedSinceItWasCopied() throws Exception {
        Path queueDir = dir.resolve("meanwhile");
        assertThat(ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "3", "10", "40"))
                .contains("written=31");
        List<Path> finished = cycleFiles(queueDir).subList(0, 3);
        byte[] content = Files.readAllBytes(finished.get(1));
        for (Path file : finished) {
            WrittenWhole.again(file);
        }
        Path deleted = finished.get(0);
        Path replaced = finished.get(1);
        Path changed = finished.get(2);

        UnusedIndexSpace.SparseCopy ofReplaced = UnusedIndexSpace.sparseCopy(replaced);
        assertThat(ofReplaced).isNotNull();
        Path other = dir.resolve("other.cq4");
        Files.write(other, content);
        Files.move(other, replaced, StandardCopyOption.REPLACE_EXISTING);
        Object replacement = Files.getAttribute(replaced, "unix:ino");
        assertThat(UnusedIndexSpace.replace(ofReplaced)).as("the file was replaced since it was copied").isFalse();
        UnusedIndexSpace.discard(ofReplaced);
        assertThat(Files.getAttribute(replaced, "unix:ino")).isEqualTo(replacement);

        UnusedIndexSpace.SparseCopy ofDeleted = UnusedIndexSpace.sparseCopy(deleted);
        assertThat(ofDeleted).isNotNull();
        Files.delete(deleted);
        assertThat(UnusedIndexSpace.replace(ofDeleted)).as("deleted since it was copied, as retention does").isFalse();
        UnusedIndexSpace.discard(ofDeleted);
        assertThat(deleted).doesNotExist();

        // Changed in place since it was copied: its permissions (the change time moves), then a byte more.
        UnusedIndexSpace.SparseCopy ofChanged = UnusedIndexSpace.sparseCopy(changed);
        assertThat(ofChanged).isNotNull();
        Object inode = Files.getAttribute(changed, "unix:ino");
        Files.setPosixFilePermissions(changed, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(UnusedIndexSpace.replace(ofChanged)).as("its change time moved").isFalse();
        UnusedIndexSpace.discard(ofChanged);
        UnusedIndexSpace.SparseCopy ofAppended = UnusedIndexSpace.sparseCopy(changed);
        assertThat(ofAppended).isNotNull();
        Files.write(changed, new byte[1], StandardOpenOption.APPEND);
        assertThat(UnusedIndexSpace.replace(ofAppended)).as("a byte more").isFalse();
        UnusedIndexSpace.discard(ofAppended);
        assertThat(Files.getAttribute(changed, "unix:ino")).isEqualTo(inode);
        assertThat(queueDir).isDirectoryNotContaining("glob:**.sparse.tmp");
    }

    @Test
    void shouldGiveTheCopyTheFilesPermissionsGroupAndModificationTime() throws Exception {
        Path queueDir = dir.resolve("attributes");
        Path file = oneFinishedCycleWithoutNativeAccess(queueDir, 10, 40);
        WrittenWhole.again(file);
        Set<PosixFilePermission> mode = PosixFilePermissions.fromString("rw-r-----");
        Files.setPosixFilePermissions(file, mode);
        FileTime finishedAt = FileTime.from(Instant.parse("2026-01-02T03:04:05Z"));
        Files.setLastModifiedTime(file, finishedAt);
        Object group = Files.getAttribute(file, "posix:group");
        Object inode = Files.getAttribute(file, "unix:ino");

        UnusedIndexSpace.SparseCopy copy = UnusedIndexSpace.sparseCopy(file);
        assertThat(copy).isNotNull();
        assertThat(UnusedIndexSpace.replace(copy)).isTrue();

        assertThat(Files.getAttribute(file, "unix:ino")).as("a new file").isNotEqualTo(inode);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(mode);
        assertThat(Files.getAttribute(file, "posix:group")).isEqualTo(group);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(finishedAt);
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

    /** Whether finished cycles of the queue in {@code queueDir} give back their unused index space where it is. */
    private static boolean givesBackOn(Path queueDir) {
        try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build()) {
            return UnusedIndexSpace.appliesTo(queue.filesystem());
        }
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

    /** One MINUTELY cycle of {@code excerpts} excerpts, finished by one more, by a child JVM without the flag. */
    private static Path oneFinishedCycleWithoutNativeAccess(Path queueDir, int excerpts, int length) throws Exception {
        assertThat(ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queueDir.toString(), "1",
                String.valueOf(excerpts), String.valueOf(length))).contains("written=" + (excerpts + 1));
        return cycleFiles(queueDir).getFirst();
    }
}
