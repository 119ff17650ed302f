package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table store written by the earlier format (version 1: no token serial, no process records, 24-bit lock
 * tokens) is read as it is and upgraded in place by the first writer that opens it.
 */
class TableStoreUpgradeTest {
    private static final long VERSION_OFFSET = 8;
    private static final long LOCK_OFFSET = 128;
    /** Where version 1 ended: after its header and 1024 named-tailer slots of 256 bytes. */
    private static final long VERSION_1_LENGTH = 1024 + 1024 * 256;

    @TempDir
    Path dir;

    /** A queue written by version 1, whose table store is a version 1 one with the lock of a dead writer. */
    private Path writeAVersion1QueueWithTheLockOfADeadWriter() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("written by version 1");
        }
        Path tableStore = dir.resolve("metadata.cq4t");
        try (FileChannel channel = FileChannel.open(tableStore, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.truncate(VERSION_1_LENGTH);
            channel.write(littleEndianInt(1), VERSION_OFFSET);
            // A version 1 token: pid 4242 in bits 40.., process slot 7 + 1 in bits 24..39, counter 5; slot 7 is free.
            channel.write(littleEndianLong(4242L << 40 | 8L << 24 | 5), LOCK_OFFSET);
        }
        return tableStore;
    }

    @Test
    void shouldReadAVersion1TableStoreReadOnly() throws IOException {
        writeAVersion1QueueWithTheLockOfADeadWriter();

        try (MappedQueue readOnly = MappedQueue.builder(dir).readOnly(true).build();
             ExcerptTailer tailer = readOnly.createTailer()) {
            assertThat(tailer.readText()).isEqualTo("written by version 1");
        }
    }

    @Test
    void shouldClearTheLockOfADeadOlderWriter() throws IOException {
        writeAVersion1QueueWithTheLockOfADeadWriter();

        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("written by version 2");
            List<WriterProcess> writers = queue.writerProcesses();
            assertThat(writers).singleElement().satisfies(writer -> {
                assertThat(writer.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(writer.holdsWriteLock()).isFalse();
            });
        }
    }

    @Test
    void shouldUpgradeAVersion1TableStoreWhenOpenedForWriting() throws IOException {
        Path tableStore = writeAVersion1QueueWithTheLockOfADeadWriter();

        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("written by version 2");
        }
        try (RandomAccessFile file = new RandomAccessFile(tableStore.toFile(), "r")) {
            file.seek(VERSION_OFFSET);
            assertThat(Integer.reverseBytes(file.readInt())).isEqualTo(2);
            assertThat(file.length()).isGreaterThan(VERSION_1_LENGTH);
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptTailer tailer = queue.createTailer()) {
            assertThat(tailer.readText()).isEqualTo("written by version 1");
            assertThat(tailer.readText()).isEqualTo("written by version 2");
        }
    }

    private static ByteBuffer littleEndianInt(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
    }

    private static ByteBuffer littleEndianLong(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
    }
}
