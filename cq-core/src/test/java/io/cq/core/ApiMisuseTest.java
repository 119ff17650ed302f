package io.cq.core;

import io.cq.core.message.Messages;
import io.cq.core.message.MethodReader;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a user may do wrong with the API, or at its edges, loses nothing and is told at once. */
class ApiMisuseTest {
    @TempDir
    Path dir;

    /** Handlers whose interface declares a checked exception. */
    public interface Orders {
        void onOrder(String id) throws Exception;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable e) throws T {
        throw (T) e;
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

    @Test
    void shouldReadAgainAMessageWhoseHandlerThrewACheckedException() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            Orders writer = Messages.methodWriter(appender, Orders.class);
            try {
                writer.onOrder("o-1");
                writer.onOrder("o-2");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            List<String> handled = new ArrayList<>();
            AtomicBoolean failOnce = new AtomicBoolean(true);
            MethodReader reader = Messages.methodReader(tailer, (Orders) id -> {
                if (failOnce.getAndSet(false)) {
                    throw new IOException("the database is down");
                }
                handled.add(id);
            });

            assertThatThrownBy(reader::readOne).isInstanceOf(IOException.class);
            while (reader.readOne()) {
                // reads what is left
            }

            assertThat(handled).containsExactly("o-1", "o-2");
        }
    }

    @Test
    void shouldPublishAndCommitNothingWhenCodeThrowsACheckedExceptionUnchecked() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            assertThatThrownBy(() -> appender.writeDocument(bytes -> {
                bytes.writeLong(1);
                sneakyThrow(new IOException("as Kotlin or @SneakyThrows throw it"));
            })).isInstanceOf(IOException.class);
            assertThat(queue.lastIndex()).as("nothing half-written was published").isEqualTo(-1);

            appender.writeText("whole");
            assertThatThrownBy(() -> tailer.readDocument(bytes -> sneakyThrow(new IOException("a failed read"))))
                    .isInstanceOf(IOException.class);
            assertThat(tailer.readText()).as("the read was rolled back").isEqualTo("whole");
        }
    }

    @Test
    void shouldRefuseAtOnceASecondAppenderOnTheThreadThatHoldsTheWriteLock() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender first = queue.createAppender();
             ExcerptAppender second = queue.createAppender()) {
            try (WriteContext context = first.writingDocument()) {
                context.bytes().writeInt(1);
                assertThatThrownBy(() -> second.writeText("would wait for itself"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("this thread already holds the queue's write lock");
            }
            second.writeText("after the first context closed");
            assertThat(queue.lastIndex() - queue.firstIndex()).isEqualTo(1);
        }
    }

    @Test
    void shouldFindNoDamageWhileAnotherThreadAppends() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).build()) {
            Thread writer = Thread.ofPlatform().start(() -> {
                try (ExcerptAppender appender = queue.acquireAppender()) {
                    for (int i = 0; i < 60_000; i++) {
                        appender.writeBytes(new byte[1_000 + i % 2_000]);
                    }
                }
            });
            List<String> findings = new ArrayList<>();
            int verifications = 0;
            while (writer.isAlive()) {
                queue.verify().findings().stream()
                        .filter(finding -> finding.severity() == QueueVerification.Severity.DAMAGE)
                        .forEach(finding -> findings.add(finding.toString()));
                verifications++;
            }
            writer.join();
            assertThat(verifications).isPositive();
            assertThat(findings).isEmpty();
            assertThat(queue.verify().excerptsChecked()).isEqualTo(60_000);
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

    @Test
    void shouldNameTheLastExcerptOfTheCycleBeforeAsNextWhenReadingBackwardPastACyclesStart() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).clock(clock).build();
             ExcerptAppender appender = queue.acquireAppender()) {
            for (int hour = 0; hour < 2; hour++) {
                for (int i = 0; i < 3; i++) {
                    appender.writeText("h" + hour + " e" + i);
                }
                clock.advance(Duration.ofHours(1));
            }
            long lastOfFirstHour;
            try (ExcerptTailer tailer = queue.createTailer("back")) {
                tailer.direction(TailerDirection.BACKWARD).toEnd();
                List<String> read = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    read.add(tailer.readText());
                }
                assertThat(read).containsExactly("h1 e2", "h1 e1", "h1 e0");
                lastOfFirstHour = tailer.index();
                assertThat(queue.rollCycle().toSequenceNumber(lastOfFirstHour)).isEqualTo(2);
                assertThat(tailer.moveToIndex(lastOfFirstHour)).as("index() names an excerpt that exists").isTrue();
            }
            try (ExcerptTailer resumed = queue.createTailer("back")) {
                resumed.direction(TailerDirection.BACKWARD);
                assertThat(resumed.readText()).as("resumes with the next one backward, not the one read last")
                        .isEqualTo("h0 e2");
            }
        }
    }
}
