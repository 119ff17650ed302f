package io.cq.core.internal.memory;

import io.cq.core.internal.os.NativeAccess;
import io.cq.core.support.DiskUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Reservations ahead in a file an appender is leaving on a full disk stop, so that what retention deletes makes
 * room for the next cycle's file: checked on a real file's allocated blocks.
 */
class MappedFileReservationTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @Test
    void shouldReserveNothingAheadOnceStopped() throws IOException {
        assumeTrue(NativeAccess.canReserveBlocks(), "reserving ahead needs native access to fallocate");
        Path path = dir.resolve("cycle");
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), 16 * MIB - 1); // 16 MiB long, sparse
            MappedFile mapped = new MappedFile(path, channel, true, 16 * MIB, 0, 512 * 1024, null);
            try {
                assertThat(mapped.blocks().reserveAheadNow(2 * MIB, () -> true)).isTrue();
                long reserved = DiskUsage.allocatedBytes(path);
                assertThat(reserved).as("blocks reserved ahead").isGreaterThanOrEqualTo(2 * MIB);

                mapped.blocks().stopReservingAhead();

                assertThat(mapped.blocks().reserveAheadNow(12 * MIB, () -> true)).isFalse();
                assertThat(DiskUsage.allocatedBytes(path)).as("nothing more reserved once stopped").isEqualTo(reserved);
            } finally {
                mapped.close();
            }
        }
    }
}
