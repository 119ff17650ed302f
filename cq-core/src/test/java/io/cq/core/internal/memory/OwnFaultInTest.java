package io.cq.core.internal.memory;

import io.cq.core.internal.os.NativeAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An appender whose background thread has not faulted its next pages in does so itself, a slice at a time
 * ({@link BlockReservation#populateOwn}), rather than leaving its stores to start the page cache's read-ahead of
 * megabytes: checked with the residency of a real file's pages ({@link MemorySegment#isLoaded}, mincore).
 */
class OwnFaultInTest {
    private static final long MIB = 1L << 20;
    private static final long PAGE = 4096;
    private static final long SLICE = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void shouldFaultInTheReservedPagesFromThePageOfTheWritePosition() throws IOException {
        assumeTrue(NativeAccess.canReserveBlocks(), "faulting in with madvise needs native access");
        try (FileChannel channel = open(dir.resolve("cycle"))) {
            MappedFile mapped = map(channel);
            try {
                mapped.blocks().reserve(0, 2 * MIB);
                MemorySegment chunk = mapped.chunk(0);
                long position = 3 * PAGE + 17;
                assertThat(chunk.asSlice(3 * PAGE, SLICE).isLoaded()).as("before").isFalse();

                long end = mapped.blocks().populateOwn(chunk, 0, position, position + SLICE);

                assertThat(end).isEqualTo(position + SLICE);
                assertThat(chunk.asSlice(3 * PAGE, end - 3 * PAGE).isLoaded()).as("from the position's page").isTrue();
                assertThat(chunk.get(ValueLayout.JAVA_LONG_UNALIGNED, position)).as("nothing written")
                        .isZero();
            } finally {
                mapped.close();
            }
        }
    }

    @Test
    void shouldFaultInNothingBeyondWhatIsReserved() throws IOException {
        assumeTrue(NativeAccess.canReserveBlocks(), "faulting in with madvise needs native access");
        try (FileChannel channel = open(dir.resolve("cycle"))) {
            MappedFile mapped = map(channel);
            try {
                long reserved = mapped.blocks().reserveExactly(0, 2 * PAGE);
                MemorySegment chunk = mapped.chunk(0);
                long from = reserved + PAGE;

                assertThat(mapped.blocks().populateOwn(chunk, 0, from, from + SLICE)).as("nothing done")
                        .isEqualTo(from);
                assertThat(chunk.asSlice(from, SLICE).isLoaded()).isFalse();
            } finally {
                mapped.close();
            }
        }
    }

    /** 512 KiB blocks of a 16 MiB file, writable: what a cycle file maps. */
    private MappedFile map(FileChannel channel) {
        return new MappedFile(dir.resolve("cycle"), channel, true, 16 * MIB, 0, 512 * 1024, null);
    }

    private static FileChannel open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        channel.write(ByteBuffer.allocate(1), 16 * MIB - 1); // 16 MiB long, sparse
        return channel;
    }
}
