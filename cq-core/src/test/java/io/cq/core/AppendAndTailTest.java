package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppendAndTailTest {
    @TempDir
    Path dir;

    private MappedQueue open() {
        return MappedQueue.builder(dir).build();
    }

    @Test
    void shouldGiveConsecutiveExcerptsConsecutiveIndexes() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            long first = appender.writeText("hello");
            long second = appender.writeBytes(new byte[] {1, 2, 3});
            long third = appender.writeText("wörld ✓ \uD83D\uDE00");

            assertThat(second).isEqualTo(first + 1);
            assertThat(third).isEqualTo(first + 2);
            assertThat(appender.lastIndexAppended()).isEqualTo(third);
        }
    }

    @Test
    void shouldReadBackTextAndBytesInTheOrderTheyWereAppended() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            appender.writeText("hello");
            appender.writeBytes(new byte[] {1, 2, 3});
            appender.writeText("wörld ✓ \uD83D\uDE00");

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("hello");
            assertThat(tailer.readBytes()).containsExactly(1, 2, 3);
            assertThat(tailer.readText()).isEqualTo("wörld ✓ \uD83D\uDE00");
            assertThat(tailer.readText()).isNull();
            assertThat(tailer.readBytes()).isNull();
        }
    }

    @Test
    void shouldRoundTripEveryCursorTypeThroughOneExcerpt() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            long index;
            try (WriteContext dc = appender.writingDocument()) {
                index = dc.index();
                dc.bytes().writeByte((byte) -7).writeBoolean(true).writeShort((short) 300).writeChar('λ')
                        .writeInt(-123456).writeLong(Long.MIN_VALUE + 1).writeFloat(1.5f).writeDouble(Math.PI)
                        .writeUtf8("naïve").writeUtf8(null).writeUtf8("").writeBytes(new byte[] {9, 8});
                dc.bytes().writeLong(0).writeLongAt(dc.bytes().position() - 8, 42L);
            }
            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext dc = tailer.readingDocument()) {
                assertThat(dc.isPresent()).isTrue();
                assertThat(dc.index()).isEqualTo(index);
                ExcerptBytes in = dc.bytes();
                assertThat(in.readByte()).isEqualTo((byte) -7);
                assertThat(in.readBoolean()).isTrue();
                assertThat(in.readShort()).isEqualTo((short) 300);
                assertThat(in.readChar()).isEqualTo('λ');
                assertThat(in.readInt()).isEqualTo(-123456);
                assertThat(in.readLong()).isEqualTo(Long.MIN_VALUE + 1);
                assertThat(in.readFloat()).isEqualTo(1.5f);
                assertThat(in.readDouble()).isEqualTo(Math.PI);
                assertThat(in.readUtf8()).isEqualTo("naïve");
                assertThat(in.readUtf8()).isNull();
                StringBuilder empty = new StringBuilder();
                assertThat(in.readUtf8(empty)).isTrue();
                assertThat(empty).isEmpty();
                byte[] two = new byte[2];
                in.readBytes(two);
                assertThat(two).containsExactly(9, 8);
                assertThat(in.readLong()).isEqualTo(42L);
                assertThat(in.remaining()).isZero();
                assertThatThrownBy(in::readByte).isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessageContaining("the excerpt has");
                assertThatThrownBy(() -> in.writeInt(1)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("being read");
            }
        }
    }

    @Test
    void shouldGiveAnEmptyQueueNoIndexes() {
        try (MappedQueue queue = open()) {
            assertThat(queue.lastIndex()).isEqualTo(-1);
            assertThat(queue.firstIndex()).isEqualTo(-1);
            assertThat(queue.countExcerpts(0, Long.MAX_VALUE)).isZero();
        }
    }

    @Test
    void shouldGiveATailerOfAnEmptyQueueNothingToRead() {
        try (MappedQueue queue = open()) {
            ExcerptTailer tailer = queue.createTailer().toEnd();
            assertThat(tailer.readText()).isNull();
            try (ReadContext dc = tailer.readingDocument()) {
                assertThat(dc.isPresent()).isFalse();
                assertThat(dc.index()).isEqualTo(-1);
            }
            assertThat(tailer.toStart().readText()).isNull();
            assertThat(tailer.lag()).isZero();
        }
    }

    @Test
    void shouldReadOnlyNewExcerptsAfterToEnd() {
        try (MappedQueue queue = open()) {
            ExcerptTailer atEndOfEmpty = queue.createTailer().toEnd();
            queue.acquireAppender().writeText("old");
            ExcerptTailer atEnd = queue.createTailer().toEnd();
            queue.acquireAppender().writeText("new");

            assertThat(atEnd.readText()).isEqualTo("new");
            assertThat(atEnd.readText()).isNull();
            assertThat(atEndOfEmpty.readText()).isEqualTo("old");
        }
    }

    /** Rolls back a write of a long text and returns the index the write had. */
    private static long rollBackAWrite(ExcerptAppender appender) {
        try (WriteContext dc = appender.writingDocument()) {
            dc.bytes().writeUtf8("a long text that must not leave anything behind when it is rolled back");
            dc.rollbackOnClose();
            return dc.index();
        }
    }

    @Test
    void shouldGiveTheIndexOfARolledBackWriteToTheNextExcerpt() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            long rolledBackIndex = rollBackAWrite(appender);
            long kept = appender.writeText("kept");
            assertThat(kept).isEqualTo(rolledBackIndex);
            assertThat(appender.lastIndexAppended()).isEqualTo(kept);
        }
    }

    @Test
    void shouldDiscardARolledBackWrite() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            rollBackAWrite(appender);
            appender.writeText("kept");

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("kept");
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldReadAnExcerptAgainAfterARolledBackRead() {
        try (MappedQueue queue = open()) {
            queue.acquireAppender().writeText("one");
            queue.acquireAppender().writeText("two");
            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext dc = tailer.readingDocument()) {
                assertThat(dc.isPresent()).isTrue();
                dc.rollbackOnClose();
            }
            assertThat(tailer.readText()).isEqualTo("one");
            assertThat(tailer.readText()).isEqualTo("two");
        }
    }

    @Test
    void shouldPublishAnEmptyExcerpt() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            try (WriteContext ignored = appender.writingDocument()) {
                // nothing written: still an excerpt
            }
            appender.writeText("after");
            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext dc = tailer.readingDocument()) {
                assertThat(dc.isPresent()).isTrue();
                assertThat(dc.bytes().length()).isZero();
            }
            assertThat(tailer.readText()).isEqualTo("after");
            assertThat(queue.lastIndex() - queue.firstIndex()).isEqualTo(1);
        }
    }

    @Test
    void shouldCarryExcerptsLargerThanOneMegabyte() {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(16 << 20).build()) {
            byte[] big = new byte[3 << 20];
            new Random(1).nextBytes(big);
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 7; i++) {
                big[0] = (byte) i;
                appender.writeBytes(big);
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < 7; i++) {
                byte[] read = tailer.readBytes();
                big[0] = (byte) i;
                assertThat(Arrays.equals(read, big)).as("excerpt %d", i).isTrue();
            }
            assertThat(tailer.readBytes()).isNull();
        }
    }

    @Test
    void shouldCarryA64MebibyteExcerptWithAMatchingBlockSize() {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(256L << 20).build()) {
            byte[] huge = new byte[64 << 20];
            huge[0] = 1;
            huge[huge.length - 1] = 2;
            queue.acquireAppender().writeBytes(huge);
            byte[] read = queue.createTailer().readBytes();
            assertThat(read).hasSize(64 << 20);
            assertThat(read[0]).isEqualTo((byte) 1);
            assertThat(read[read.length - 1]).isEqualTo((byte) 2);
        }
    }

    private MappedQueue openWith64KibBlocks() {
        return MappedQueue.builder(dir).blockSize(64 * 1024).rollCycle(RollCycle.TEST_SECONDLY).build();
    }

    /** Tries an excerpt too large for 64 KiB blocks as bytes, as text and through a write context. */
    private static void tryExcerptsTooLargeFor64KibBlocks(ExcerptAppender appender) {
        assertThatThrownBy(() -> appender.writeBytes(new byte[20_000]))
                .isInstanceOf(ExcerptTooLargeException.class)
                .hasMessageContaining("limit of 16384 bytes")
                .hasMessageContaining("blockSize=65536")
                .hasMessageContaining("blockSize(..) to at least 131072");
        assertThatThrownBy(() -> appender.writeText("x".repeat(20_000)))
                .isInstanceOf(ExcerptTooLargeException.class);
        try (WriteContext dc = appender.writingDocument()) {
            dc.bytes().writeLong(1);
            assertThatThrownBy(() -> dc.bytes().writeBytes(new byte[20_000]))
                    .isInstanceOf(ExcerptTooLargeException.class);
        }
    }

    @Test
    void shouldRefuseAnExcerptTooLargeForTheBlockSize() {
        try (MappedQueue queue = openWith64KibBlocks()) {
            tryExcerptsTooLargeFor64KibBlocks(queue.acquireAppender());
        }
    }

    @Test
    void shouldStayUsableAfterRefusingAnExcerptTooLargeForTheBlockSize() {
        try (MappedQueue queue = openWith64KibBlocks()) {
            ExcerptAppender appender = queue.acquireAppender();
            appender.writeText("before");
            tryExcerptsTooLargeFor64KibBlocks(appender);
            appender.writeText("after");

            ExcerptTailer tailer = queue.createTailer();
            assertThat(tailer.readText()).isEqualTo("before");
            assertThat(tailer.readText()).isEqualTo("after");
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldCrossBlockBoundariesWithExcerptsOfEverySize() {
        Random random = new Random(7);
        List<byte[]> written = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64 * 1024).rollCycle(RollCycle.TEST_SECONDLY)
                .clock(new io.cq.core.support.MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"))).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 3_000; i++) {
                byte[] payload = new byte[random.nextInt(i % 50 == 0 ? 16_000 : 300)];
                random.nextBytes(payload);
                written.add(payload);
                appender.writeBytes(payload);
            }
            ExcerptTailer tailer = queue.createTailer();
            for (int i = 0; i < written.size(); i++) {
                assertThat(tailer.readBytes()).as("excerpt %d", i).isEqualTo(written.get(i));
            }
            assertThat(tailer.readBytes()).isNull();
        }
    }

    @Test
    void shouldGiveEachThreadItsOwnAppender() throws Exception {
        try (MappedQueue queue = open()) {
            ExcerptAppender mine = queue.acquireAppender();
            List<ExcerptAppender> others = new ArrayList<>();
            Thread other = Thread.ofPlatform().start(() -> {
                others.add(queue.acquireAppender());
                others.add(queue.acquireAppender());
            });
            other.join();
            assertThat(queue.acquireAppender()).isSameAs(mine);
            assertThat(others.get(1)).isSameAs(others.get(0));
            assertThat(others.get(0)).isNotSameAs(mine);
        }
    }

    @Test
    void shouldKeepEachThreadsOrderWhenThreadsAppendAtOnce() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).build()) {
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                writers.add(Thread.ofPlatform().start(() -> {
                    ExcerptAppender appender = queue.acquireAppender();
                    for (int i = 0; i < perThread; i++) {
                        try (WriteContext dc = appender.writingDocument()) {
                            dc.bytes().writeInt(id).writeInt(i);
                        }
                    }
                }));
            }
            for (Thread writer : writers) {
                writer.join();
            }
            int[] next = new int[threads];
            ExcerptTailer tailer = queue.createTailer();
            int total = 0;
            while (true) {
                try (ReadContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    int id = dc.bytes().readInt();
                    assertThat(dc.bytes().readInt()).isEqualTo(next[id]);
                    next[id]++;
                    total++;
                }
            }
            assertThat(total).isEqualTo(threads * perThread);
            assertThat(next).containsOnly(perThread);
        }
    }

    @Test
    void shouldRefuseASecondWriteContextFromTheSameAppender() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            try (WriteContext dc = appender.writingDocument()) {
                dc.bytes().writeInt(1);
                assertThatThrownBy(appender::writingDocument).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("already has an open write context");
            }
            assertThat(queue.createTailer().readBytes()).hasSize(4);
        }
    }

    @Test
    void shouldDecodeTextWrittenWithTheCursorWithoutAllocatingIntoAReusedBuilder() {
        try (MappedQueue queue = open()) {
            try (WriteContext dc = queue.acquireAppender().writingDocument()) {
                dc.bytes().writeUtf8("price=101.5");
            }
            StringBuilder into = new StringBuilder(64);
            try (ReadContext dc = queue.createTailer().readingDocument()) {
                assertThat(dc.bytes().readUtf8(into)).isTrue();
            }
            assertThat(into.toString()).isEqualTo("price=101.5");
            assertThat(new String(queue.createTailer().readBytes(), StandardCharsets.UTF_8)).endsWith("price=101.5");
        }
    }

    @Test
    void shouldRejectANegativeLengthWithoutPublishingAnything() {
        try (MappedQueue queue = open()) {
            ExcerptAppender appender = queue.acquireAppender();
            try (WriteContext dc = appender.writingDocument()) {
                assertThatThrownBy(() -> dc.bytes().writeBytes(new byte[4], 0, -1))
                        .isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> dc.bytes().writeBytes(new byte[4], 2, 3))
                        .isInstanceOf(IndexOutOfBoundsException.class);
                dc.bytes().writeInt(7);
            }
            appender.writeText("next");
            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext dc = tailer.readingDocument()) {
                assertThat(dc.bytes().length()).isEqualTo(4);
                assertThat(dc.bytes().readInt()).isEqualTo(7);
            }
            assertThat(tailer.readText()).isEqualTo("next");
            assertThat(queue.lastIndex()).isEqualTo(appender.lastIndexAppended());
        }
    }

    @Test
    void shouldSayAWriteContextIsClosedWhenWrittenToAfterItsClose() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender()) {
            WriteContext context = appender.writingDocument();
            context.bytes().writeInt(1);
            context.close();

            assertThatThrownBy(() -> context.bytes().writeInt(2)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is closed");
            assertThat(queue.lastIndex()).isEqualTo(queue.firstIndex());
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable e) throws T {
        throw (T) e;
    }

    @Test
    void shouldPublishNothingWhenAWriteThrowsACheckedExceptionUnchecked() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender()) {
            assertThatThrownBy(() -> appender.writeDocument(bytes -> {
                bytes.writeLong(1);
                sneakyThrow(new IOException("as Kotlin or @SneakyThrows throw it"));
            })).isInstanceOf(IOException.class);
            assertThat(queue.lastIndex()).as("nothing half-written was published").isEqualTo(-1);
        }
    }

    @Test
    void shouldRollBackAReadWhenItThrowsACheckedExceptionUnchecked() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("whole");
            assertThatThrownBy(() -> tailer.readDocument(bytes -> sneakyThrow(new IOException("a failed read"))))
                    .isInstanceOf(IOException.class);
            assertThat(tailer.readText()).as("the read was rolled back").isEqualTo("whole");
        }
    }
}
