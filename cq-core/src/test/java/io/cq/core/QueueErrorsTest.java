package io.cq.core;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueErrorsTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseToOpenAMissingQueueReadOnly() {
        Path missing = dir.resolve("nothing-here");
        assertThatThrownBy(() -> MappedQueue.builder(missing).readOnly(true).build())
                .isInstanceOf(QueueException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
        assertThat(missing).doesNotExist();
    }

    @Test
    void shouldRefuseAPathThatIsAFile() throws IOException {
        Path file = Files.writeString(dir.resolve("plain.txt"), "hello");
        assertThatThrownBy(() -> MappedQueue.builder(file).build())
                .isInstanceOf(QueueException.class).hasMessageContaining("is not a directory");
    }

    @Test
    void shouldRefuseATableStoreWrittenByAnotherProgram() throws IOException {
        Files.write(dir.resolve("metadata.cq4t"), new byte[4096]);
        assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                .isInstanceOf(CorruptQueueException.class)
                .hasMessageContaining("metadata.cq4t")
                .hasMessageContaining("not a cq table store");
        Files.write(dir.resolve("metadata.cq4t"), new byte[10]);
        assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                .isInstanceOf(CorruptQueueException.class).hasMessageContaining("shorter than its 1024-byte header");
    }

    @Test
    void shouldRefuseACycleFileThatIsNotOurs() throws IOException {
        String name;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("x");
            name = queue.rollCycle().fileName(queue.currentCycle()) + ".cq4";
        }
        try (var channel = java.nio.channels.FileChannel.open(dir.resolve(name), StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap("GARBAGE!".getBytes()), 0);
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> queue.createTailer().readText())
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(name)
                    .hasMessageContaining("at position 0")
                    .hasMessageContaining("not a cq cycle file");
        }
    }

    @Test
    void shouldRefuseACycleFileCutShorterThanItsHeader() throws IOException {
        String name;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("x");
            name = queue.rollCycle().fileName(queue.currentCycle()) + ".cq4";
        }
        try (var channel = java.nio.channels.FileChannel.open(dir.resolve(name), StandardOpenOption.WRITE)) {
            channel.truncate(100);
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> queue.createTailer().readText())
                    .isInstanceOf(CorruptQueueException.class).hasMessageContaining("shorter than its 256-byte header");
        }
    }

    @Test
    void shouldReportAGarbageRecordHeaderWithFileAndPosition() throws IOException {
        String name;
        long position;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("x");
            name = queue.rollCycle().fileName(queue.currentCycle()) + ".cq4";
            String dump = queue.dump();
            position = Long.parseLong(dump.replaceAll("(?s).*0x[0-9a-f]+ @(\\d+) .*", "$1"));
        }
        try (var channel = java.nio.channels.FileChannel.open(dir.resolve(name), StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), position);
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            assertThatThrownBy(() -> queue.createTailer().readText())
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining(name)
                    .hasMessageContaining("at position " + position)
                    .hasMessageContaining("expected a record header");
        }
    }

    @Test
    void shouldNameTheSettingWhenABuilderValueIsOutOfRange() {
        assertThatThrownBy(() -> MappedQueue.builder(dir).blockSize(1000).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("blockSize=1000 ");
        assertThatThrownBy(() -> MappedQueue.builder(dir).indexSpacing(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("indexSpacing=0 ");
        assertThatThrownBy(() -> MappedQueue.builder(dir).indexSpacing(24).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
    }

    @Test
    void shouldRefuseToAppendToAReadOnlyQueue() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("x");
        }
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build()) {
            assertThatThrownBy(queue::acquireAppender).isInstanceOf(QueueException.class)
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void shouldReportEveryUseOfAClosedQueueAppenderOrTailerWithQueueClosedException() {
        MappedQueue queue = MappedQueue.builder(dir).build();
        ExcerptAppender appender = queue.createAppender();
        ExcerptAppender threadAppender = queue.acquireAppender();
        appender.writeText("before close");
        ExcerptTailer tailer = queue.createTailer();
        ExcerptTailer named = queue.createTailer("billing");
        Pretoucher pretoucher = queue.createPretoucher();
        queue.close();
        queue.close();

        List<ThrowingCallable> queueUses = List.of(queue::createTailer, () -> queue.createTailer("other"),
                queue::createAppender, queue::acquireAppender, queue::createPretoucher, queue::firstIndex,
                queue::lastIndex, queue::namedTailers, queue::diskSpace, queue::cycles, queue::dump, queue::verify,
                () -> queue.countExcerpts(0, 10), () -> queue.setNamedTailerIndex("billing", 0));
        for (ThrowingCallable use : queueUses) {
            assertThatThrownBy(use).isInstanceOf(QueueClosedException.class)
                    .hasMessageContaining("queue " + dir).hasMessageContaining("is closed");
        }
        for (ExcerptAppender closed : List.of(appender, threadAppender)) {
            assertThatThrownBy(closed::writingDocument).isInstanceOf(QueueClosedException.class)
                    .hasMessageContaining("appender of queue " + dir + " is closed");
            assertThatThrownBy(() -> closed.writeText("x")).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> closed.writeBytes(new byte[1])).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> closed.writeDocument(bytes -> bytes.writeInt(1)))
                    .isInstanceOf(QueueClosedException.class);
        }
        for (ExcerptTailer closed : List.of(tailer, named)) {
            List<ThrowingCallable> tailerUses = List.of(closed::readingDocument, closed::readText, closed::readBytes,
                    closed::toStart, closed::toEnd, () -> closed.moveToIndex(0), closed::lag,
                    () -> closed.moveTo(StartPosition.end()), () -> closed.direction(TailerDirection.BACKWARD));
            for (ThrowingCallable use : tailerUses) {
                assertThatThrownBy(use).isInstanceOf(QueueClosedException.class).hasMessageContaining("is closed");
            }
        }
        assertThatThrownBy(named::readingDocument).hasMessageContaining("named tailer 'billing' of queue " + dir);
        assertThatThrownBy(pretoucher::execute).isInstanceOf(QueueClosedException.class);
    }

    @Test
    void shouldRefuseATextLengthThatDoesNotFitTheExcerptWithoutReadingPastIt() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("utf8")).build();
             ExcerptAppender appender = queue.createAppender()) {
            // Stop-bit lengths of 2^63 - 2 (past any excerpt, and past a long when added to a position), and one of
            // eleven bytes.
            byte[] huge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, 0x7F, 'a'};
            byte[] tooLong = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
            appender.writeBytes(huge);
            appender.writeBytes(tooLong);
            try (ExcerptTailer tailer = queue.createTailer()) {
                for (int i = 0; i < 2; i++) {
                    try (ReadContext context = tailer.readingDocument()) {
                        assertThatThrownBy(() -> context.bytes().readUtf8(new StringBuilder()))
                                .isInstanceOf(IndexOutOfBoundsException.class);
                    }
                }
            }
        }
    }
}
