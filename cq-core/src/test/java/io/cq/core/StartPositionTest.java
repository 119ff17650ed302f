package io.cq.core;

import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartPositionTest {
    @TempDir
    Path dir;

    /** Appends "one", "two" and "three"; returns their indexes. */
    private static long[] oneTwoThree(ExcerptAppender appender) {
        return new long[] {appender.writeText("one"), appender.writeText("two"), appender.writeText("three")};
    }

    @Test
    void shouldMoveToAnIndex() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            long second = oneTwoThree(appender)[1];
            ExcerptTailer tailer = queue.createTailer();

            assertThat(tailer.moveTo(StartPosition.index(second))).isTrue();
            assertThat(tailer.readText()).isEqualTo("two");
        }
    }

    @Test
    void shouldMoveBackToTheStartFromWhereverItIs() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            long first = oneTwoThree(appender)[0];
            ExcerptTailer tailer = queue.createTailer();
            tailer.readText();
            tailer.readText();

            assertThat(tailer.moveTo(StartPosition.start())).isTrue();
            assertThat(tailer.index()).isEqualTo(first);
        }
    }

    @Test
    void shouldMoveToTheEndWhereOnlyWhatIsAppendedNextIsRead() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            oneTwoThree(appender);
            ExcerptTailer tailer = queue.createTailer();

            assertThat(tailer.moveTo(StartPosition.end())).isTrue();
            assertThat(tailer.readText()).isNull();
            appender.writeText("four");
            assertThat(tailer.readText()).isEqualTo("four");
        }
    }

    @Test
    void shouldSayFalseForAnIndexTheQueueDoesNotHold() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            long last = appender.writeText("only");
            ExcerptTailer tailer = queue.createTailer();

            assertThat(tailer.moveTo(StartPosition.index(last + 100))).isFalse();
        }
    }

    @Test
    void shouldLeaveTheTailerAtTheEndWhenMovedToAnIndexTheQueueDoesNotHold() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            long last = appender.writeText("only");
            ExcerptTailer tailer = queue.createTailer();

            tailer.moveTo(StartPosition.index(last + 100));
            assertThat(tailer.readText()).isNull();
            appender.writeText("next");
            assertThat(tailer.readText()).isEqualTo("next");
        }
    }

    @Test
    void shouldApplyTheFallbackToANamedTailerThatNeverCommitted() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("a");
            appender.writeText("b");
            try (ExcerptTailer fresh = queue.createTailer("reader")) {
                assertThat(fresh.moveTo(StartPosition.resumeOrEnd())).isTrue();
                assertThat(fresh.readText()).isNull();
                appender.writeText("c");
                assertThat(fresh.readText()).isEqualTo("c");
            }
        }
    }

    @Test
    void shouldResumeANamedTailerThatCommitted() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("a");
            appender.writeText("b");
            try (ExcerptTailer fresh = queue.createTailer("reader")) {
                assertThat(fresh.moveTo(StartPosition.resumeOrEnd())).isTrue();
                appender.writeText("c");
                assertThat(fresh.readText()).isEqualTo("c");
            }
            appender.writeText("d");
            try (ExcerptTailer again = queue.createTailer("reader")) {
                assertThat(again.moveTo(StartPosition.resumeOrEnd())).isTrue();
                assertThat(again.readText()).isEqualTo("d");
            }
            try (ExcerptTailer forced = queue.createTailer("reader")) {
                assertThat(forced.moveTo(StartPosition.start())).isTrue();
                assertThat(forced.readText()).isEqualTo("a");
            }
        }
    }

    @Test
    void shouldAlwaysApplyTheFallbackToAnUnnamedTailer() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("a");
            appender.writeText("d");
            // An unnamed tailer has nothing to resume: the fallback always applies.
            ExcerptTailer unnamed = queue.createTailer();
            assertThat(unnamed.moveTo(StartPosition.resumeOr(StartPosition.index(queue.lastIndex())))).isTrue();
            assertThat(unnamed.readText()).isEqualTo("d");
        }
    }

    @Test
    void shouldStartAtTheFirstExcerptOfTheCycleOfATimeOrOfTheNextCycleWithAFile() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("ten");
            clock.advance(Duration.ofHours(2));
            appender.writeText("twelve");
            ExcerptTailer tailer = queue.createTailer();

            assertThat(tailer.moveTo(StartPosition.time(Instant.parse("2026-11-25T10:30:00Z")))).isTrue();
            assertThat(tailer.readText()).isEqualTo("ten");
            assertThat(tailer.moveTo(StartPosition.time(Instant.parse("2026-11-25T11:15:00Z")))).isTrue();
            assertThat(tailer.readText()).isEqualTo("twelve");
            assertThat(tailer.moveTo(StartPosition.time(Instant.parse("2026-11-25T13:00:00Z")))).isFalse();
            assertThat(tailer.readText()).isNull();
        }
    }

    @Test
    void shouldEqualTheSamePositionHoweverItWasMade() {
        assertThat(StartPosition.of(StartPosition.Kind.INDEX, 16, null)).isEqualTo(StartPosition.index(16));
        assertThat(StartPosition.resumeOrStart()).isEqualTo(StartPosition.resumeOr(StartPosition.start()));
    }

    @Test
    void shouldDescribeAPositionAsItIsWritten() {
        assertThat(StartPosition.resumeOrEnd().toString()).isEqualTo("resumeOr(end)");
        assertThat(StartPosition.index(255).toString()).isEqualTo("index(0xff)");
    }

    @Test
    void shouldResumeOnlyWithAResumingPosition() {
        assertThat(StartPosition.start().resumes()).isFalse();
    }

    @Test
    void shouldRefuseBadPositions() {
        assertThatThrownBy(() -> StartPosition.index(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("index=-1");
        assertThatThrownBy(() -> StartPosition.of(StartPosition.Kind.TIME, -1, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("time");
    }

    private static List<String> readAll(ExcerptTailer tailer) {
        List<String> texts = new ArrayList<>();
        for (String text = tailer.readText(); text != null; text = tailer.readText()) {
            texts.add(text);
        }
        return texts;
    }

    @Test
    void shouldLeaveATailerWhereItWasMovedInsideAnOpenReadContext() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender()) {
            for (String text : List.of("a", "b", "c")) {
                appender.writeText(text);
            }
            long last = queue.lastIndex();
            try (ExcerptTailer tailer = queue.createTailer("moved")) {
                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(context.isPresent()).isTrue();
                    tailer.toEnd();
                }
                appender.writeText("d");
                assertThat(readAll(tailer)).as("after toEnd: what came after it, nothing skipped").containsExactly("d");

                assertThat(tailer.moveToIndex(last - 1)).isTrue();
                assertThat(tailer.readDocument(bytes -> tailer.toStart())).isTrue();
                assertThat(tailer.readText()).as("after toStart inside readDocument").isEqualTo("a");

                try (ReadContext context = tailer.readingDocument()) {
                    assertThat(tailer.moveToIndex(last)).isTrue();
                }
                assertThat(readAll(tailer)).as("moveToIndex reads the excerpt it moved to").containsExactly("c", "d");
            }
            try (ExcerptTailer reopened = queue.createTailer("moved")) {
                assertThat(reopened.readText()).as("the saved position is the one after the last read").isNull();
            }
        }
    }
}
