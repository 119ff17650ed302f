package io.cq.core.internal.async;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.internal.queue.StoreQueue;
import io.cq.core.support.AsyncQueueProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tailer of an async queue against the drainer's window between recording a record as drained and publishing its
 * excerpt in the queue (docs/file-format.md, "Async buffer"). The window is held open here by doing what a drainer
 * does first, on a queue nobody drains: a tailer that met it read nothing, though the excerpt was acknowledged.
 */
class AsyncTailerDrainTest {
    @TempDir
    Path dir;

    private MappedQueue open() {
        return AsyncQueueProcess.open(dir.resolve("q"), dir.resolve("buffers"), false);
    }

    private static AsyncRing ring(MappedQueue queue) {
        return ((RingFront) ((StoreQueue) queue).asyncFront()).ring();
    }

    /** What a drainer does before it publishes the record's excerpt in the queue. */
    private static void recordDrained(AsyncRing ring, long index) {
        AsyncRing.DrainState state = new AsyncRing.DrainState();
        ring.readDrained(state);
        long position = state.nextPosition;
        while (ring.indexAt(position) != index) {
            position = ring.after(position, ring.lengthAt(position));
        }
        ring.writeDrained(index, position, ring.after(position, ring.lengthAt(position)));
    }

    @Test
    void shouldReadTheFirstExcerptFromTheBufferWhileTheDrainerHasRecordedButNotPublishedIt() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            long first = appender.writeText("one");
            appender.writeText("two");
            recordDrained(ring(queue), first);
            assertThat(queue.lastIndex()).as("nothing published in the queue's files").isEqualTo(-1);

            assertReadsThenNothing(tailer, "one", "two");
        }
    }

    @Test
    void shouldReadTheNextExcerptFromTheBufferWhileTheDrainerHasRecordedButNotPublishedIt() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("one");
            long second = appender.writeText("two");
            appender.writeText("three");
            assertThat(tailer.readText()).isEqualTo("one");
            assertThat(tailer.index()).isEqualTo(second);

            recordDrained(ring(queue), second);
            assertThat(tailer.readText()).as("the excerpt at the index wanted, being drained").isEqualTo("two");
            assertReadsThenNothing(tailer, "three");
        }
    }

    @Test
    void shouldMoveToAnExcerptTheDrainerHasRecordedButNotPublished() {
        try (MappedQueue queue = open(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            appender.writeText("one");
            long second = appender.writeText("two");
            appender.writeText("three");
            recordDrained(ring(queue), second);

            assertThat(tailer.moveToIndex(second)).isTrue();
            assertReadsThenNothing(tailer, "two", "three");
        }
    }

    /** The tailer reads these texts, in this order, and then finds nothing more. */
    private static void assertReadsThenNothing(ExcerptTailer tailer, String... texts) {
        for (String text : texts) {
            assertThat(tailer.readText()).isEqualTo(text);
        }
        assertThat(tailer.readText()).isNull();
    }
}
