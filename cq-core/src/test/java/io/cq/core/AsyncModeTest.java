package io.cq.core;

import io.cq.core.support.AppendingProcess;
import io.cq.core.support.AsyncQueueProcess;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Async mode (MappedQueueBuilder.asyncMode): writers add to a buffer in shared memory, a drainer copies it into the
 * queue, tailers read what is buffered before it is drained; killing the drainer or a writer loses nothing that was
 * acknowledged.
 */
class AsyncModeTest {
    @TempDir
    Path dir;

    private Path queueDir() {
        return dir.resolve("queue");
    }

    private Path buffers() {
        return dir.resolve("buffers");
    }

    private MappedQueue open(boolean drain) {
        return AsyncQueueProcess.open(queueDir(), buffers(), drain);
    }

    /** Appends "message 0" to "message 4999"; returns the index each write returned. */
    private static List<Long> appendFiveThousand(ExcerptAppender appender) {
        List<Long> appended = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            appended.add(appender.writeText("message " + i));
        }
        return appended;
    }

    @Test
    void shouldGiveEachExcerptTheIndexItGetsInTheQueue() {
        List<Long> appended = new ArrayList<>();
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
            assertThat(queue.settings().asyncMode()).isTrue();
            for (int i = 0; i < 5_000; i++) {
                appended.add(appender.writeText("message " + i));
                assertThat(appender.lastIndexAppended()).isEqualTo(appended.get(i));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.lastIndex() == appended.getLast());
        }
        assertThat(appended).doesNotHaveDuplicates().isSorted();
        // Reopened, with the buffer drained and removed: the queue's files hold every excerpt at its index.
        try (MappedQueue queue = open(true); ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 5_000; i++) {
                try (ReadContext dc = tailer.readingDocument()) {
                    assertThat(dc.index()).isEqualTo(appended.get(i));
                    byte[] bytes = new byte[(int) dc.bytes().length()];
                    dc.bytes().readBytes(bytes);
                    assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("message " + i);
                }
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldReadAsyncExcerptsInTheOrderTheyWereAppended() {
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
            List<Long> appended = appendFiveThousand(appender);
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int i = 0; i < 5_000; i++) {
                    try (ReadContext dc = tailer.readingDocument()) {
                        assertThat(dc.isPresent()).isTrue();
                        assertThat(dc.index()).isEqualTo(appended.get(i));
                    }
                }
                assertThat(tailer.readingDocument().isPresent()).isFalse();
            }
        }
    }

    @Test
    void shouldRemoveADrainedBufferWhenTheLastProcessCloses() throws Exception {
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
            List<Long> appended = appendFiveThousand(appender);
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.lastIndex() == appended.getLast());
        }
        try (Stream<Path> left = Files.list(buffers())) {
            assertThat(left).as("a drained buffer is removed by the last process to close").isEmpty();
        }
    }

    /**
     * A queue closed right after its first append, before its drainer thread took the drain lock, drains at the
     * close: the excerpt reaches the files and the buffer is deleted. Each in a new JVM, with the buffer where it goes
     * by default (/dev/shm, quick to make): before the fix, 5 of 12 such runs left the excerpt in the buffer only.
     */
    @Test
    void shouldDrainAtTheCloseWhatAQueueClosedRightAfterOpeningAppended() throws Exception {
        for (int run = 0; run < 10; run++) {
            Path queue = dir.resolve("quick-" + run);
            String closed;
            // Both compilers, as an application runs: with C1 alone (the children's usual setting, for speed) the
            // drainer thread wins the race every time.
            try (ChildJvm child = ChildJvm.start(List.of("-XX:TieredStopAtLevel=4"), AsyncQueueProcess.class,
                    queue.toString(), "default", "append-and-close")) {
                closed = child.awaitLine("closed", 30, TimeUnit.SECONDS);
                assertThat(child.awaitExit(30, TimeUnit.SECONDS)).isZero();
            }
            long index = Long.parseLong(closed.substring("closed ".length()));
            try (MappedQueue reader = MappedQueue.builder(queue).readOnly(true).build()) {
                assertThat(reader.verify().excerptsChecked()).as("run %d: the excerpt is in the files", run)
                        .isEqualTo(1);
                assertThat(reader.lastIndex()).isEqualTo(index);
                assertThat(reader.asyncBufferedBytes()).as("run %d: the buffer was drained and deleted", run)
                        .isZero();
            }
        }
    }

    /**
     * Async mode in a plain {@code java -jar}: no native access, and restricted methods refused outright, as the JDK
     * means to make the default. Nothing is printed about native access and the excerpt is drained.
     */
    @Test
    void shouldWorkWithoutNativeAccessEvenWhereRestrictedMethodsAreRefused() throws Exception {
        Path queue = dir.resolve("plain-jar");
        List<String> lines = ChildJvm.runToEnd(false, List.of("--illegal-native-access=deny"),
                AsyncQueueProcess.class, queue.toString(), buffers().toString(), "append-and-close");
        assertThat(lines).contains("read appended just before the close")
                .noneMatch(line -> line.contains("WARNING") || line.contains("restricted method")
                        || line.contains("IllegalCallerException"));
        try (MappedQueue reader = MappedQueue.builder(queue).readOnly(true).build()) {
            assertThat(reader.verify().excerptsChecked()).isEqualTo(1);
        }
    }

    /** Appends "one" and "two" where nobody drains, reads both through the tailer, and returns the second index. */
    private static long appendAndReadTwoBufferedExcerpts(MappedQueue writerQueue, ExcerptAppender appender,
                                                         ExcerptTailer tailer) {
        long first = appender.writeText("one");
        long second = appender.writeText("two");
        assertThat(second).isEqualTo(first + 1);
        assertThat(writerQueue.lastIndex()).as("nobody drains: nothing in the queue's files").isEqualTo(-1);
        assertThat(writerQueue.asyncBufferedBytes()).as("two records of 3 bytes, 32 bytes each").isEqualTo(64);
        assertThat(tailer.lag()).isEqualTo(2);
        assertThat(tailer.readText()).isEqualTo("one");
        assertThat(tailer.index()).isEqualTo(second);
        assertThat(tailer.readText()).isEqualTo("two");
        assertThat(tailer.readText()).isNull();
        assertThat(tailer.lag()).isZero();
        return second;
    }

    @Test
    void shouldReadBufferedExcerptsBeforeAnyoneDrainsThem() {
        try (MappedQueue writerQueue = open(false); ExcerptAppender appender = writerQueue.createAppender();
             ExcerptTailer tailer = writerQueue.createTailer("reader")) {
            appendAndReadTwoBufferedExcerpts(writerQueue, appender, tailer);
        }
    }

    @Test
    void shouldNotReadBufferedExcerptsAgainOnceTheyAreDrained() {
        try (MappedQueue writerQueue = open(false); ExcerptAppender appender = writerQueue.createAppender();
             ExcerptTailer tailer = writerQueue.createTailer("reader")) {
            long second = appendAndReadTwoBufferedExcerpts(writerQueue, appender, tailer);

            try (MappedQueue drainer = open(true)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> drainer.lastIndex() == second);
                long third = appender.writeText("three");
                assertThat(third).isEqualTo(second + 1);
                assertThat(tailer.readText()).as("the drained copies are passed over").isEqualTo("three");
                assertThat(tailer.readText()).isNull();
                await().atMost(Duration.ofSeconds(10)).until(() -> drainer.lastIndex() == third);
                assertThat(tailer.readText()).isNull();
                assertThat(drainer.asyncBufferedBytes()).isZero();
            }
            assertThat(writerQueue.namedTailer("reader").orElseThrow().nextIndex()).isEqualTo(second + 2);
        }
    }

    @Test
    void shouldMoveToTheEndPastBufferedExcerpts() {
        try (MappedQueue queue = open(false); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("one");
            appender.writeText("two");
            tailer.toEnd();
            assertThat(tailer.readText()).isNull();
            appender.writeText("three");
            assertThat(tailer.readText()).isEqualTo("three");
        }
    }

    @Test
    void shouldMoveToABufferedIndex() {
        try (MappedQueue queue = open(false); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            long first = appender.writeText("one");
            long second = appender.writeText("two");
            tailer.toEnd();
            assertThat(tailer.moveToIndex(second)).isTrue();
            assertThat(tailer.readText()).isEqualTo("two");
            assertThat(tailer.moveToIndex(first)).isTrue();
            assertThat(tailer.readText()).isEqualTo("one");
            assertThat(tailer.moveToIndex(second + 5)).isFalse();
        }
    }

    @Test
    void shouldRefuseToOpenAQueueInTheOtherMode() {
        MappedQueue.builder(dir.resolve("plain")).build().close();
        assertThatThrownBy(() -> MappedQueue.builder(dir.resolve("plain")).asyncMode(true).build())
                .isInstanceOf(AsyncModeMismatchException.class).hasMessageContaining("created without async mode");
        open(true).close();
        assertThatThrownBy(() -> MappedQueue.builder(queueDir()).asyncMode(false).build())
                .isInstanceOf(AsyncModeMismatchException.class).hasMessageContaining("created in async mode");
    }

    @Test
    void shouldAdoptTheQueuesModeWhenUnset() {
        open(true).close();
        try (MappedQueue adopted = MappedQueue.builder(queueDir()).build()) {
            assertThat(adopted.settings().asyncMode()).isTrue();
            assertThat(adopted.settings().asyncBufferDirectory()).isEqualTo(buffers().toAbsolutePath());
        }
    }

    @Test
    void shouldRefuseAsyncModeWithSyncDurability() {
        assertThatThrownBy(() -> MappedQueue.builder(dir.resolve("sync")).asyncMode(true)
                .durability(Durability.SYNC).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not go together");
    }

    @Test
    void shouldSayNobodyDrainsWhenTheBufferStaysFull() {
        try (MappedQueue queue = MappedQueue.builder(queueDir()).asyncMode(true).asyncBufferDirectory(buffers())
                .asyncBufferSize(64 << 10).asyncDrain(false).writeLockCheckInterval(Duration.ofMillis(50))
                .writeLockTimeout(Duration.ofMillis(300)).build();
             ExcerptAppender appender = queue.createAppender()) {
            byte[] payload = new byte[1_000];
            int accepted = 0;
            try {
                for (; accepted < 1_000; accepted++) {
                    appender.writeBytes(payload);
                }
            } catch (AsyncBufferFullException e) {
                assertThat(e).hasMessageContaining("no process is draining it");
            }
            assertThat(accepted).isBetween(50, 64);
            assertThatThrownBy(() -> appender.writeBytes(new byte[20_000]))
                    .isInstanceOf(ExcerptTooLargeException.class).hasMessageContaining("async queue");
            try (MappedQueue drainer = MappedQueue.builder(queueDir()).build()) {
                int expected = accepted;
                await().atMost(Duration.ofSeconds(10)).until(() -> drainer.lastIndex() >= 0
                        && drainer.countExcerpts(drainer.firstIndex(), drainer.lastIndex() + 1) == expected);
                appender.writeBytes(payload);
            }
        }
    }

    @Test
    void shouldLoseNothingAcknowledgedWhenTheDrainingProcessIsKilled() throws Exception {
        Random random = new Random(42);
        int count = 30_000;
        try (ChildJvm drainer = ChildJvm.start(false, List.of(), AsyncQueueProcess.class, queueDir().toString(),
                buffers().toString(), "drain")) {
            drainer.awaitLine("ready", 30, TimeUnit.SECONDS);
            try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
                int killAt = 5_000 + random.nextInt(15_000);
                for (int i = 0; i < count; i++) {
                    try (WriteContext dc = appender.writingDocument()) {
                        dc.bytes().writeInt(1).writeInt(i).writeLong(AppendingProcess.checksum(1, i));
                    }
                    if (i == killAt) {
                        drainer.kill();
                    }
                }
                long last = appender.lastIndexAppended();
                await().atMost(Duration.ofSeconds(20)).until(() -> queue.lastIndex() == last);
            }
        }
        assertEveryWriterExactlyOnceInOrder(Map.of(1, count - 1));
    }

    @Test
    void shouldLoseNothingAcknowledgedWhenAWriterIsKilledMidStream() throws Exception {
        Map<Integer, Integer> lastAcked = new HashMap<>();
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
            try (ChildJvm victim = ChildJvm.start(AsyncQueueProcess.class, queueDir().toString(),
                    buffers().toString(), "write", "2", "1000000", "nodrain")) {
                victim.awaitLine("ready", 30, TimeUnit.SECONDS);
                int acked = 0;
                for (int i = 0; i < 20_000; i++) {
                    try (WriteContext dc = appender.writingDocument()) {
                        dc.bytes().writeInt(1).writeInt(i).writeLong(AppendingProcess.checksum(1, i));
                    }
                    if (i == 10_000) {
                        acked = Integer.parseInt(victim.awaitLine("acked", 30, TimeUnit.SECONDS).substring(6));
                        victim.kill();
                    }
                }
                lastAcked.put(1, 19_999);
                lastAcked.put(2, acked);
            }
            long last = appender.lastIndexAppended();
            await().atMost(Duration.ofSeconds(20)).until(() -> queue.lastIndex() >= last);
        }
        assertEveryWriterExactlyOnceInOrder(lastAcked);
    }

    @Test
    void shouldLetAnotherProcessReadWhatIsBufferedBeforeAnyoneDrains() throws Exception {
        try (MappedQueue queue = open(false); ExcerptAppender appender = queue.createAppender()) {
            long last = -1;
            long sum = 0;
            for (int i = 0; i < 1_000; i++) {
                try (WriteContext dc = appender.writingDocument()) {
                    dc.bytes().writeInt(1).writeInt(i);
                }
                last = appender.lastIndexAppended();
                sum += i;
            }
            try (ChildJvm reader = ChildJvm.start(AsyncQueueProcess.class, queueDir().toString(),
                    buffers().toString(), "read", "1000")) {
                assertThat(reader.awaitLine("read", 30, TimeUnit.SECONDS))
                        .as("every excerpt, its last index, and nothing drained yet")
                        .isEqualTo("read 1000 " + sum + " " + last + " -1");
            }
        }
    }

    @Test
    void shouldReadEveryExcerptOnceInOrderWhileWritersLapASmallBuffer() throws Exception {
        int count = 20_000;
        try (MappedQueue queue = MappedQueue.builder(queueDir()).asyncMode(true).asyncBufferDirectory(buffers())
                .asyncBufferSize(64 << 10).blockSize(1 << 20).build();
             ExcerptTailer tailer = queue.createTailer()) {
            Thread writer = Thread.ofPlatform().start(() -> {
                try (ExcerptAppender appender = queue.createAppender()) {
                    byte[] payload = new byte[100];
                    for (int i = 0; i < count; i++) {
                        try (WriteContext dc = appender.writingDocument()) {
                            dc.bytes().writeInt(i).writeBytes(payload);
                        }
                    }
                }
            });
            Random pauses = new Random(7);
            long previous = -1;
            for (int expected = 0; expected < count; ) {
                try (ReadContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        Thread.onSpinWait();
                        continue;
                    }
                    assertThat(dc.bytes().readInt()).isEqualTo(expected);
                    if (previous >= 0) {
                        assertThat(dc.index()).isEqualTo(previous + 1);
                    }
                    previous = dc.index();
                    expected++;
                }
                if (pauses.nextInt(500) == 0) {
                    // A slow reader: it waits until the drainer is more than a lap of the buffer (512 records) past
                    // what it read, so the records after it are reused, and it must go on in the queue.
                    long behind = previous;
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> queue.lastIndex() >= behind + 600 || !writer.isAlive());
                }
            }
            writer.join();
            assertThat(tailer.readingDocument().isPresent()).isFalse();
        }
    }

    @Test
    void shouldStartAFreshBufferAfterTheQueuesLastExcerptWhenTheBufferIsLost() throws Exception {
        long drainedLast;
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("drained");
            drainedLast = appender.lastIndexAppended();
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.lastIndex() == drainedLast);
        }
        try (MappedQueue queue = open(false); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("never drained");
        }
        // What a reboot does to /dev/shm: the buffer, with the excerpt nobody drained, is gone.
        try (Stream<Path> files = Files.list(buffers())) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        try (MappedQueue queue = open(true); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            long next = appender.writeText("after");
            assertThat(next).isEqualTo(drainedLast + 1);
            assertThat(tailer.readText()).isEqualTo("drained");
            assertThat(tailer.readText()).isEqualTo("after");
            assertThat(tailer.readText()).isNull();
        }
    }

    /** Every writer's excerpts up to its last acknowledged one are in the queue's files once each, in its order. */
    private void assertEveryWriterExactlyOnceInOrder(Map<Integer, Integer> lastAcked) {
        Map<Integer, Integer> nextExpected = new HashMap<>();
        try (MappedQueue queue = MappedQueue.builder(queueDir()).readOnly(true).build();
             ExcerptTailer tailer = queue.createTailer()) {
            long previous = -1;
            while (true) {
                try (ReadContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (previous >= 0) {
                        assertThat(dc.index()).as("no gaps").isEqualTo(previous + 1);
                    }
                    previous = dc.index();
                    int writer = dc.bytes().readInt();
                    int sequence = dc.bytes().readInt();
                    assertThat(dc.bytes().readLong()).isEqualTo(AppendingProcess.checksum(writer, sequence));
                    int expected = nextExpected.getOrDefault(writer, 0);
                    assertThat(sequence).as("writer %d: once each, in order", writer).isEqualTo(expected);
                    nextExpected.put(writer, expected + 1);
                }
            }
            assertThat(queue.verify().isIntact()).isTrue();
        }
        lastAcked.forEach((writer, acked) -> assertThat(nextExpected.getOrDefault(writer, 0) - 1)
                .as("writer %d's acknowledged excerpts are all there", writer).isGreaterThanOrEqualTo(acked));
    }
}
