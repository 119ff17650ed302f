package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.ClaimNamedTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamedTailerTest {
    @TempDir
    Path dir;

    private MappedQueue open() {
        return MappedQueue.builder(dir).blockSize(1 << 20).build();
    }

    private static void append(MappedQueue queue, String... texts) {
        for (String text : texts) {
            queue.acquireAppender().writeText(text);
        }
    }

    @Test
    void shouldResumeRightAfterTheLastCommittedExcerptWhenReopened() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c", "d");
            try (ExcerptTailer billing = queue.createTailer("billing")) {
                assertThat(billing.readText()).isEqualTo("a");
                assertThat(billing.readText()).isEqualTo("b");
                try (ReadContext dc = billing.readingDocument()) {
                    assertThat(dc.isPresent()).isTrue();
                    dc.rollbackOnClose();
                }
            }
        }
        try (MappedQueue queue = open()) {
            ExcerptTailer billing = queue.createTailer("billing");
            assertThat(billing.readText()).isEqualTo("c");
            ExcerptTailer other = queue.createTailer("audit");
            assertThat(other.readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldNameTheHolderWhenRefusingASecondLiveTailerOfTheSameName() {
        try (MappedQueue queue = open()) {
            queue.createTailer("billing");
            assertThatThrownBy(() -> queue.createTailer("billing"))
                    .isInstanceOf(NamedTailerInUseException.class)
                    .hasMessageContaining("'billing'")
                    .hasMessageContaining("pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("thread '" + Thread.currentThread().getName() + "'");
        }
    }

    @Test
    void shouldAllowOneLiveTailerPerNameAcrossQueuesOfTheSameDirectory() {
        try (MappedQueue queue = open()) {
            ExcerptTailer first = queue.createTailer("billing");
            try (MappedQueue sameDirectory = open()) {
                assertThatThrownBy(() -> sameDirectory.createTailer("billing"))
                        .isInstanceOf(NamedTailerInUseException.class);
            }
            first.close();
            assertThat(queue.createTailer("billing")).isNotNull();
        }
    }

    @Test
    void shouldTreatNamesAsCaseSensitive() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b");
            ExcerptTailer lower = queue.createTailer("billing");
            ExcerptTailer upper = queue.createTailer("Billing");
            assertThat(lower.readText()).isEqualTo("a");
            assertThat(upper.readText()).isEqualTo("a");
            assertThat(queue.namedTailers()).extracting(NamedTailerPosition::name)
                    .containsExactly("billing", "Billing");
        }
    }

    @Test
    void shouldRejectInvalidNames() {
        try (MappedQueue queue = open()) {
            for (String bad
                    : new String[] {"", "../escape", "a/b", "with space", "-leading", "x".repeat(65), "naïve"}) {
                assertThatThrownBy(() -> queue.createTailer(bad))
                        .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not valid");
            }
            assertThatThrownBy(() -> queue.createTailer((String) null)).isInstanceOf(IllegalArgumentException.class);
            assertThat(queue.createTailer("ok.name_1-2")).isNotNull();
        }
    }

    @Test
    void shouldReportTheNextIndexOfANamedTailer() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c");
            long second = queue.firstIndex() + 1;
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                tailer.readText();
                assertThat(queue.namedTailer("billing").orElseThrow().nextIndex()).isEqualTo(second);
            }
        }
    }

    @Test
    void shouldReportANamedTailerAsHeldOnlyWhileItIsOpen() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c");
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                tailer.readText();
                assertThat(queue.namedTailer("billing").orElseThrow().held()).isTrue();
            }
            assertThat(queue.namedTailer("billing").orElseThrow().held()).isFalse();
        }
    }

    @Test
    void shouldReportNoPositionForANameNoTailerHasHad() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c");
            queue.createTailer("billing").close();
            assertThat(queue.namedTailer("nobody")).isEmpty();
        }
    }

    @Test
    void shouldSetThePositionOfANamedTailerOnlyWhileItIsNotHeld() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c");
            long second = queue.firstIndex() + 1;
            try (ExcerptTailer tailer = queue.createTailer("billing")) {
                tailer.readText();
                assertThatThrownBy(() -> queue.setNamedTailerIndex("billing", 0))
                        .isInstanceOf(NamedTailerInUseException.class);
            }
            queue.setNamedTailerIndex("billing", second + 1);
            assertThat(queue.createTailer("billing").readText()).isEqualTo("c");
            queue.setNamedTailerIndex("fresh", -1);
            assertThat(queue.createTailer("fresh").readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldPersistMovesOfANamedTailer() {
        try (MappedQueue queue = open()) {
            append(queue, "a", "b", "c");
            try (ExcerptTailer tailer = queue.createTailer("replay")) {
                tailer.toEnd();
            }
            append(queue, "d");
            try (ExcerptTailer tailer = queue.createTailer("replay")) {
                assertThat(tailer.readText()).isEqualTo("d");
                assertThat(tailer.moveToIndex(queue.firstIndex() + 1)).isTrue();
            }
            try (ExcerptTailer tailer = queue.createTailer("replay")) {
                assertThat(tailer.readText()).isEqualTo("b");
                tailer.toStart();
            }
            assertThat(queue.createTailer("replay").readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldWaitForDataWhenResumingAtTheEnd() {
        try (MappedQueue queue = open()) {
            append(queue, "a");
            try (ExcerptTailer tailer = queue.createTailer("t")) {
                assertThat(tailer.readText()).isEqualTo("a");
            }
            try (ExcerptTailer tailer = queue.createTailer("t")) {
                assertThat(tailer.readText()).isNull();
                append(queue, "b");
                assertThat(tailer.readText()).isEqualTo("b");
            }
        }
    }

    @Test
    void shouldRefuseNamedTailersOnAReadOnlyQueue() {
        try (MappedQueue writable = open()) {
            append(writable, "a");
        }
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build()) {
            assertThatThrownBy(() -> queue.createTailer("t")).isInstanceOf(QueueException.class)
                    .hasMessageContaining("read-only");
            assertThat(queue.createTailer().readText()).isEqualTo("a");
        }
    }

    @Test
    void shouldKeepANamedTailerHeldWhenTheSameQueueOpenedThroughALinkIsClosed() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link"), dir.resolve("q").toAbsolutePath().getFileName());
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("q")).rollCycle(RollCycle.TEST_SECONDLY)
                .blockSize(64 * 1024).build(); ExcerptTailer held = queue.createTailer("billing")) {
            MappedQueue.builder(link).rollCycle(RollCycle.TEST_SECONDLY).blockSize(64 * 1024).build().close();
            try (ChildJvm other = ChildJvm.start(ClaimNamedTailer.class, dir.resolve("q").toString(), "billing")) {
                assertThat(other.awaitLine("result:", 60, TimeUnit.SECONDS)).startsWith("result: in use");
            }
            assertThat(held.name()).isEqualTo("billing");
        }
    }
}
