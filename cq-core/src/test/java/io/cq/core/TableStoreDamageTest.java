package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A damaged cycle range or roll cycle in the table store: a writer refuses to open the queue, naming the field,
 * rather than appending to a file no reader would ever find; the files are left as they are and stay readable.
 */
class TableStoreDamageTest {
    private static final long MAX_CYCLE_OFFSET = 192;
    private static final long MIN_CYCLE_OFFSET = 200;
    private static final long ROLL_NAME_OFFSET = 40;

    @TempDir
    Path dir;

    @Test
    void shouldRefuseToWriteFromAMaxCycleBeyondAnyCycleOrNamingNoFile() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("kept");
        }
        List<Path> before = files();
        for (long nonsense : new long[] {2_407_006_960_229L << 20, 0, -7}) {
            writeLong(MAX_CYCLE_OFFSET, nonsense);
            assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining("metadata.cq4t").hasMessageContaining("maxCycle " + nonsense);
            assertThat(files()).as("no cycle file created from the damaged field").isEqualTo(before);
            try (MappedQueue readOnly = MappedQueue.builder(dir).readOnly(true).build();
                 ExcerptTailer tailer = readOnly.createTailer()) {
                assertThat(tailer.readText()).isEqualTo("kept");
                // The end of the newest file is the end of the queue: a newer cycle named without a file does not
                // make it a finished cycle cut short (the damage is the table store's, which verify names).
                assertThat(tailer.readText()).isNull();
            }
        }
    }

    @Test
    void shouldRefuseAMinCycleAboveTheMaxCycle() throws IOException {
        long cycle;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("kept");
            cycle = queue.rollCycle().toCycle(queue.lastIndex());
        }
        writeLong(MIN_CYCLE_OFFSET, cycle + 5);
        assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                .isInstanceOf(CorruptQueueException.class).hasMessageContaining("minCycle " + (cycle + 5));
    }

    @Test
    void shouldNameARollCycleItDoesNotKnow() throws IOException {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.HOURLY).build()) {
            queue.acquireAppender().writeText("kept");
        }
        // Same length as "HOURLY", so only the name is wrong; "hourly" differs in case alone.
        for (String name : new String[] {"HOURLX", "hourly"}) {
            try (FileChannel channel = FileChannel.open(dir.resolve("metadata.cq4t"), StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap(name.getBytes(StandardCharsets.US_ASCII)), ROLL_NAME_OFFSET);
            }
            assertThatThrownBy(() -> MappedQueue.builder(dir).build())
                    .isInstanceOf(CorruptQueueException.class)
                    .hasMessageContaining("metadata.cq4t").hasMessageContaining("unknown roll cycle '" + name + "'");
        }
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    private void writeLong(long offset, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(dir.resolve("metadata.cq4t"), StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
        }
    }
}
