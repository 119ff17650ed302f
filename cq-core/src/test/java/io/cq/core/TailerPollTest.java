package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class TailerPollTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

    /** Small blocks and one-second cycles, so that excerpts cross block edges and polls cross cycle ends. */
    private MappedQueue open() {
        return MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock).blockSize(64 * 1024).build();
    }

    private record Read(long index, byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Read r && r.index == index && Arrays.equals(r.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(index) * 31 + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Read[" + index + ", " + bytes.length + " bytes]";
        }
    }

    private static List<Read> readOneByOne(ExcerptTailer tailer) {
        List<Read> reads = new ArrayList<>();
        while (true) {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return reads;
                }
                byte[] bytes = new byte[(int) context.bytes().length()];
                context.bytes().readBytes(bytes);
                reads.add(new Read(context.index(), bytes));
            }
        }
    }

    private static ExcerptHandler collectInto(List<Read> reads) {
        return (bytes, index) -> {
            byte[] copy = new byte[(int) bytes.length()];
            bytes.readBytes(copy);
            reads.add(new Read(index, copy));
        };
    }

    private static byte[] randomPayload(SplittableRandom random) {
        // Mostly small, some large enough to cross a 64 KiB block's edge, some empty.
        int size = switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> random.nextInt(4_000, 16_000);
            default -> random.nextInt(1, 120);
        };
        byte[] payload = new byte[size];
        random.nextBytes(payload);
        return payload;
    }

    @Test
    void shouldPollTheSameExcerptsInTheSameOrderWithTheSameIndexesAsReadingOneByOne() {
        for (long seed : new long[] {7, 1_234, 98_765}) {
            SplittableRandom random = new SplittableRandom(seed);
            Path queueDir = dir.resolve("seed-" + seed);
            try (MappedQueue queue = MappedQueue.builder(queueDir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                    .blockSize(64 * 1024).build();
                 ExcerptAppender appender = queue.createAppender()) {
                for (int i = 0; i < 3_000; i++) {
                    appender.writeBytes(randomPayload(random));
                    if (random.nextInt(400) == 0) {
                        clock.advance(Duration.ofSeconds(1 + random.nextInt(3)));
                    }
                }
                List<Read> expected = readOneByOne(queue.createTailer());
                assertThat(expected).hasSize(3_000);

                List<Read> polled = new ArrayList<>();
                ExcerptTailer tailer = queue.createTailer();
                ExcerptHandler handler = collectInto(polled);
                int calls = 0;
                while (true) {
                    int limit = 1 + random.nextInt(100);
                    int read = tailer.poll(handler, limit);
                    assertThat(read).isBetween(0, limit);
                    if (read == 0) {
                        break;
                    }
                    calls++;
                }
                assertThat(polled).as("seed %d", seed).containsExactlyElementsOf(expected);
                assertThat(calls).isLessThan(3_000);
                assertThat(tailer.index()).isEqualTo(queue.lastIndex() + 1);
            }
        }
    }

    @Test
    void shouldPollEveryExcerptOfAWriterThatAppendsWhileItReads() throws Exception {
        SplittableRandom random = new SplittableRandom(424_242);
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            written.add(randomPayload(random));
        }
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("live")).blockSize(1 << 20).build();
             ExcerptTailer tailer = queue.createTailer()) {
            Thread writer = Thread.ofPlatform().start(() -> {
                try (ExcerptAppender appender = queue.createAppender()) {
                    written.forEach(appender::writeBytes);
                }
            });
            List<Read> reads = new ArrayList<>();
            ExcerptHandler handler = collectInto(reads);
            await().atMost(Duration.ofSeconds(60)).until(() -> tailer.poll(handler, 64) >= 0 && reads.size() >= 20_000);
            writer.join();
            assertThat(reads).hasSize(20_000);
            for (int i = 0; i < reads.size(); i++) {
                assertThat(reads.get(i).bytes()).as("excerpt %d", i).isEqualTo(written.get(i));
            }
            assertThat(reads).extracting(Read::index).isSorted().doesNotHaveDuplicates();
        }
    }

    @Test
    void shouldPersistForANamedTailerEveryExcerptAPollHandedOver() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 50; i++) {
                appender.writeText("m" + i);
            }
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                assertThat(tailer.poll((bytes, index) -> { }, 17)).isEqualTo(17);
            }
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                assertThat(tailer.readText()).isEqualTo("m17");
                assertThat(tailer.poll((bytes, index) -> { }, 100)).isEqualTo(32);
            }
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                assertThat(tailer.readText()).isNull();
            }
        }
    }

    @Test
    void shouldPollBackwardFromTheEndTowardsTheStart() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 5; i++) {
                appender.writeText("m" + i);
            }
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            List<Read> reads = new ArrayList<>();
            assertThat(tailer.poll(collectInto(reads), 3)).isEqualTo(3);
            assertThat(reads).extracting(r -> new String(r.bytes())).containsExactly("m4", "m3", "m2");
        }
    }

    @Test
    void shouldPollWhatTheBufferOfAnAsyncQueueHolds() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("async")).asyncMode(true).build();
             ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < 20; i++) {
                appender.writeText("m" + i);
            }
            List<Read> reads = new ArrayList<>();
            ExcerptHandler handler = collectInto(reads);
            await().atMost(Duration.ofSeconds(10)).until(() -> tailer.poll(handler, 7) >= 0 && reads.size() == 20);
            assertThat(reads).extracting(r -> new String(r.bytes()))
                    .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "m" + i).toList());
        }
    }

    @Test
    void shouldPollZeroUntilExcerptsArrive() {
        try (MappedQueue queue = open();
             ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            List<Read> reads = new ArrayList<>();
            ExcerptHandler handler = collectInto(reads);
            assertThat(tailer.poll(handler, 10)).isZero();
            appender.writeText("one");
            appender.writeText("two");
            assertThat(tailer.poll(handler, 10)).isEqualTo(2);
            assertThat(reads).extracting(r -> new String(r.bytes())).containsExactly("one", "two");
        }
    }

    @Test
    void shouldPollOnlyTheExcerptsThatAreThereWithinTheLimitAcrossACycleEnd() {
        try (MappedQueue queue = open();
             ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            List<Read> reads = new ArrayList<>();
            ExcerptHandler handler = collectInto(reads);
            appender.writeText("one");
            appender.writeText("two");
            assertThat(tailer.poll(handler, 10)).isEqualTo(2);
            assertThat(tailer.poll(handler, 10)).isZero();
            appender.writeText("three");
            clock.advance(Duration.ofSeconds(2));
            appender.writeText("four");
            assertThat(tailer.poll(handler, 1)).isEqualTo(1);
            assertThat(tailer.poll(handler, 10)).isEqualTo(1);
            assertThat(reads).extracting(r -> new String(r.bytes())).containsExactly("one", "two", "three", "four");
        }
    }

    /** Appends m0..m9 and polls them with a handler that throws at m4; returns what the handler saw before. */
    private List<String> pollUntilTheHandlerThrowsAtM4(MappedQueue queue, ExcerptTailer tailer) {
        try (ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 10; i++) {
                appender.writeText("m" + i);
            }
        }
        List<String> seen = new ArrayList<>();
        assertThatThrownBy(() -> tailer.poll((bytes, index) -> {
            byte[] raw = new byte[(int) bytes.length()];
            bytes.readBytes(raw);
            String text = new String(raw, StandardCharsets.UTF_8);
            if (text.equals("m4")) {
                throw new IllegalStateException("cannot handle " + text);
            }
            seen.add(text);
        }, 10)).isInstanceOf(IllegalStateException.class).hasMessage("cannot handle m4");
        return seen;
    }

    @Test
    void shouldHandOverTheExcerptsBeforeTheOneWhosePollHandlerThrows() {
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer("audit")) {
            assertThat(pollUntilTheHandlerThrowsAtM4(queue, tailer)).containsExactly("m0", "m1", "m2", "m3");
        }
    }

    @Test
    void shouldLeaveTheTailerOnTheExcerptWhosePollHandlerThrows() {
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer("audit")) {
            pollUntilTheHandlerThrowsAtM4(queue, tailer);
            assertThat(tailer.readText()).isEqualTo("m4");
        }
    }

    @Test
    void shouldPersistForANamedTailerTheExcerptsBeforeTheOneWhosePollHandlerThrows() {
        try (MappedQueue queue = open()) {
            try (ExcerptTailer tailer = queue.createTailer("audit")) {
                pollUntilTheHandlerThrowsAtM4(queue, tailer);
                assertThat(tailer.readText()).isEqualTo("m4");
            }
        }
        // The named tailer persisted after each excerpt it handed over: a new process resumes after m4.
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer("audit")) {
            assertThat(tailer.readText()).isEqualTo("m5");
        }
    }

    private record MovedPoll(int read, List<Long> seen, List<Long> indexes) {
    }

    /** Appends m0..m9 and polls them with a handler that moves the tailer back to m2 at the sixth excerpt. */
    private static MovedPoll pollMovingBackToM2AtTheSixthExcerpt(MappedQueue queue, ExcerptTailer tailer) {
        List<Long> indexes = new ArrayList<>();
        try (ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 10; i++) {
                indexes.add(appender.writeText("m" + i));
            }
        }
        List<Long> seen = new ArrayList<>();
        int read = tailer.poll((bytes, index) -> {
            seen.add(index);
            if (seen.size() == 6) {
                tailer.moveToIndex(indexes.get(2));
            }
        }, 100);
        return new MovedPoll(read, seen, indexes);
    }

    @Test
    void shouldEndThePollWhenItsHandlerMovesTheTailer() {
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer()) {
            MovedPoll poll = pollMovingBackToM2AtTheSixthExcerpt(queue, tailer);
            assertThat(poll.read()).isEqualTo(6);
            assertThat(poll.seen()).containsExactlyElementsOf(poll.indexes().subList(0, 6));
        }
    }

    @Test
    void shouldLeaveTheTailerWhereAPollHandlerMovedIt() {
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer()) {
            pollMovingBackToM2AtTheSixthExcerpt(queue, tailer);
            assertThat(tailer.readText()).isEqualTo("m2");
        }
    }

    @Test
    void shouldRefuseReadingInsideAPollHandlerLeavingTheTailerWhereThePollBegan() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("a");
            appender.writeText("b");
            assertThatThrownBy(() -> tailer.poll((bytes, index) -> tailer.readingDocument(), 10))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("open read context");
            assertThat(tailer.readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldRefuseToPollInsideAnOpenReadContextWithoutDisturbingIt() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("a");
            appender.writeText("b");
            assertThat(tailer.readText()).isEqualTo("a");
            try (ReadContext open = tailer.readingDocument()) {
                assertThat(open.isPresent()).isTrue();
                assertThatThrownBy(() -> tailer.poll((bytes, index) -> { }, 1))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("open read context");
            }
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldRefuseToPollWithALimitBelowOne() {
        try (MappedQueue queue = open(); ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(() -> tailer.poll((bytes, index) -> { }, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("limit must be at least 1, was 0");
        }
    }

    @Test
    void shouldRefuseToPollAClosedTailer() {
        try (MappedQueue queue = open()) {
            ExcerptTailer tailer = queue.createTailer();
            tailer.close();
            assertThatThrownBy(() -> tailer.poll((bytes, index) -> { }, 1))
                    .isInstanceOf(QueueClosedException.class);
        }
    }
}
