package io.cq.core.internal.system;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeIoTest {
    @TempDir
    Path dir;

    @Test
    void shouldFaultInAMappingWithoutChangingWhatItHolds() throws Exception {
        assumeTrue(NativeIo.canReserveBlocks(), "native access is needed");
        Path file = dir.resolve("data");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"); Arena arena = Arena.ofShared()) {
            raf.setLength(1 << 20);
            raf.seek(8192);
            raf.writeInt(0x5EED);
            MemorySegment mapping = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 1 << 20, arena);

            NativeIo.Populated populated = NativeIo.populateForWrite(mapping);

            assertThat(populated).isIn(NativeIo.Populated.DONE, NativeIo.Populated.UNSUPPORTED);
            assertThat(mapping.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 8192))
                    .isEqualTo(0x5EED);
            assertThat(mapping.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isZero();
        }
    }

    /** A sparse mapping larger than the file system: touching its pages would kill the JVM with SIGBUS. */
    @Test
    void shouldReportAFailedFaultInInsteadOfCrashingWhenTheFileSystemIsFull() throws Exception {
        assumeTrue(NativeIo.canReserveBlocks(), "native access is needed");
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a small tmpfs needs root");
        Path mount = Files.createDirectories(dir.resolve("small-fs"));
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0, "mount -t tmpfs failed");
        try {
            try (RandomAccessFile raf = new RandomAccessFile(mount.resolve("sparse").toFile(), "rw");
                 Arena arena = Arena.ofShared()) {
                raf.setLength(8 << 20);
                MemorySegment mapping = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 8 << 20, arena);

                NativeIo.Populated populated = NativeIo.populateForWrite(mapping);

                assumeTrue(populated != NativeIo.Populated.UNSUPPORTED, "the kernel has no MADV_POPULATE_WRITE");
                assertThat(populated).isEqualTo(NativeIo.Populated.FAILED);
            }
        } finally {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
