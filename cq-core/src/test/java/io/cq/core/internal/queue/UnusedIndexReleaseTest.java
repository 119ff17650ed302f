package io.cq.core.internal.queue;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.internal.lock.WriteLock;
import io.cq.core.internal.system.BackgroundWork;
import io.cq.core.support.DiskUsage;
import io.cq.core.support.FullDisk;
import io.cq.core.support.MutableClock;
import io.cq.core.support.SmallExt4;
import io.cq.core.support.WrittenWhole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The way a process without native access gives back a finished cycle's unused index space: a sparse copy put in the
 * file's place under the write lock (docs/file-format.md, "Unused index space"). Driven here with that way chosen,
 * in a JVM that has native access, so that the lock and the disk space can be held as the cases need.
 */
class UnusedIndexReleaseTest {
    @TempDir
    Path dir;

    /** Tries to give back the unused index of {@code file} from another thread while this one holds the lock. */
    private static long releaseWhileAnotherWriterHoldsTheLock(QueueContext context, Path file) throws Exception {
        try (WriteLock holder = context.newWriteLock()) {
            holder.acquire();
            try {
                // From another thread, as the background thread does: it waits in line, then gives up.
                CompletableFuture<Long> whileHeld = CompletableFuture.supplyAsync(() -> {
                    try {
                        return UnusedIndexRelease.release(context, file, false);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                return whileHeld.get(30, TimeUnit.SECONDS);
            } finally {
                holder.release();
            }
        }
    }

    /** With a write-lock timeout of an hour, a background thread that waited for the lock would hang this test. */
    @Test
    @Timeout(60)
    void shouldGiveUpRatherThanWaitWhileAnotherWriterHoldsTheLock() throws Exception {
        try (MappedQueue queue = finishedCycles(dir.resolve("held"), Long.MIN_VALUE)) {
            QueueContext context = ((StoreQueue) queue).context();
            Path file = files(queue).getFirst();
            Object inode = Files.getAttribute(file, "unix:ino");

            assertThat(releaseWhileAnotherWriterHoldsTheLock(context, file)).as("given back while held").isZero();
            assertThat(Files.getAttribute(file, "unix:ino")).as("the same file").isEqualTo(inode);
            assertThat(leftCopies(queue)).isEmpty();
        }
    }

    @Test
    void shouldGiveTheUnusedIndexBackOnceTheLockIsFree() throws Exception {
        try (MappedQueue queue = finishedCycles(dir.resolve("held"), Long.MIN_VALUE)) {
            QueueContext context = ((StoreQueue) queue).context();
            Path file = files(queue).getFirst();
            Object inode = Files.getAttribute(file, "unix:ino");
            byte[] bytes = Files.readAllBytes(file);
            long allocated = DiskUsage.allocatedBytes(file);
            releaseWhileAnotherWriterHoldsTheLock(context, file);

            assertThat(UnusedIndexRelease.release(context, file, false)).as("given back once free")
                    .isGreaterThanOrEqualTo(2L * RollCycle.MINUTELY.indexCount() * Long.BYTES - 4 * 4096);
            assertThat(Files.getAttribute(file, "unix:ino")).as("a new file").isNotEqualTo(inode);
            assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
            assertThat(DiskUsage.allocatedBytes(file)).isLessThan(allocated - RollCycle.MINUTELY.indexCount() * 8L);
            assertThat(leftCopies(queue)).isEmpty();
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldCopyNothingWhenFreeSpaceIsLow() throws Exception {
        // A warning threshold above any disk's size: the space is always low.
        try (MappedQueue queue = finishedCycles(dir.resolve("low"), Long.MAX_VALUE)) {
            QueueContext context = ((StoreQueue) queue).context();
            Path file = files(queue).getFirst();
            Object inode = Files.getAttribute(file, "unix:ino");
            assertThat(UnusedIndexRelease.release(context, file, false)).isZero();
            assertThat(Files.getAttribute(file, "unix:ino")).isEqualTo(inode);
            assertThat(leftCopies(queue)).isEmpty();
        }
    }

    /** Leaves a sparse copy as a process that died making it would, beside the first cycle file. */
    private static Path leaveACopy(MappedQueue queue) throws IOException {
        List<Path> files = files(queue);
        Path left = files.getFirst().resolveSibling(files.getFirst().getFileName() + ".4242.1234.sparse.tmp");
        Files.write(left, new byte[4096]);
        assertThat(queue.path()).isDirectoryContaining("glob:**.sparse.tmp");
        return left;
    }

    @Test
    void shouldNameCopiesThatADeadProcessLeftInVerify() throws Exception {
        try (MappedQueue queue = finishedCycles(dir.resolve("left"), Long.MIN_VALUE)) {
            Path left = leaveACopy(queue);
            assertThat(queue.verify().findings()).anySatisfy(finding -> {
                assertThat(finding.file()).isEqualTo(left);
                assertThat(finding.description()).contains("temporary file");
            });
        }
    }

    @Test
    void shouldDeleteCopiesThatADeadProcessLeftOnlyOnceTheyAreOld() throws Exception {
        try (MappedQueue queue = finishedCycles(dir.resolve("left"), Long.MIN_VALUE)) {
            QueueContext context = ((StoreQueue) queue).context();
            Path left = leaveACopy(queue);
            // Younger than an hour: it may be a live process's copy in the making, and stays.
            UnusedIndexRelease.release(context, files(queue).get(1), false);
            assertThat(left).exists();
            assertThat(UnusedIndexSpace.deleteLeftCopies(queue.path(), Duration.ZERO))
                    .isEqualTo(1);
            assertThat(left).doesNotExist();
        }
    }

    @Test
    void shouldCopyNothingWhereTheFreeSpaceIsUnderSixteenTimesTheFile() throws Exception {
        try (SmallExt4 ext4 = SmallExt4.mount(dir, 16L << 20);
             MappedQueue queue = finishedCycles(ext4.path().resolve("q"), Long.MIN_VALUE)) {
            QueueContext context = ((StoreQueue) queue).context();
            Path file = files(queue).getFirst();
            Object inode = Files.getAttribute(file, "unix:ino");
            Path filler = ext4.path().resolve("filler");
            FullDisk.fillTheRest(filler);
            long room = 8 * Files.size(file);
            try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.WRITE)) {
                channel.truncate(channel.size() - room);
            }
            assertThat(queue.diskSpace().usableBytes()).isLessThan(16 * Files.size(file));

            assertThat(UnusedIndexRelease.release(context, file, false)).isZero();
            assertThat(Files.getAttribute(file, "unix:ino")).isEqualTo(inode);
            assertThat(leftCopies(queue)).isEmpty();

            Files.delete(filler);
            assertThat(UnusedIndexRelease.release(context, file, false)).isPositive();
            assertThat(Files.getAttribute(file, "unix:ino")).isNotEqualTo(inode);
        }
    }

    /**
     * A MINUTELY queue with two finished cycles of 50 excerpts and one excerpt in the third, whose writers wait up to
     * an hour for the write lock; the background thread
     * is drained first, so that the test JVM's native access has punched what it would, and each file is then written
     * whole again, as a process that died before its background thread got to it leaves it.
     */
    private static MappedQueue finishedCycles(Path queueDir, long diskSpaceWarningBytes) throws IOException {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-27T12:00:00Z"));
        MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.MINUTELY).clock(clock)
                .writeLockTimeout(Duration.ofHours(1))
                .diskSpaceWarning(diskSpaceWarningBytes == Long.MIN_VALUE ? 0 : diskSpaceWarningBytes, 0).build();
        try (ExcerptAppender appender = queue.createAppender()) {
            for (int cycle = 0; cycle < 3; cycle++) {
                for (int i = 0; i < (cycle < 2 ? 50 : 1); i++) {
                    appender.writeText("excerpt " + i + " of cycle " + cycle);
                }
                clock.advance(Duration.ofMinutes(1));
            }
        }
        BackgroundWork.drain();
        for (Path file : files(queue).subList(0, 2)) {
            WrittenWhole.again(file);
        }
        return queue;
    }

    private static List<Path> files(MappedQueue queue) throws IOException {
        try (Stream<Path> files = Files.list(queue.path())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cq4")).sorted().toList();
        }
    }

    private static List<Path> leftCopies(MappedQueue queue) throws IOException {
        try (Stream<Path> files = Files.list(queue.path())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".sparse.tmp")).toList();
        }
    }
}
