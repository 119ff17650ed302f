package io.cq.core.internal.os;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeCallsTest {
    @TempDir
    Path dir;

    @Test
    void shouldFaultInAMappingWithoutChangingWhatItHolds() throws Exception {
        assumeTrue(NativeAccess.canReserveBlocks(), "native access is needed");
        Path file = dir.resolve("data");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"); Arena arena = Arena.ofShared()) {
            raf.setLength(1 << 20);
            raf.seek(8192);
            raf.writeInt(0x5EED);
            MemorySegment mapping = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 1 << 20, arena);

            MemoryAdvice.Populated populated = MemoryAdvice.populateForWrite(mapping);

            assertThat(populated).isIn(MemoryAdvice.Populated.DONE, MemoryAdvice.Populated.UNSUPPORTED);
            assertThat(mapping.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 8192))
                    .isEqualTo(0x5EED);
            assertThat(mapping.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isZero();
        }
    }

    /**
     * A fault on a page a sparse file has not had starts the page cache's read-ahead, which zeroes a whole window of
     * pages in one stretch that nothing preempts (docs/performance.md, "Faulting in without read-ahead"): faulting
     * in a slice brings that slice in, not the window after it.
     */
    @Test
    void shouldFaultInASliceWithoutReadingAheadPastIt() throws Exception {
        assumeTrue(NativeAccess.canReserveBlocks(), "native access is needed");
        Path file = dir.resolve("sparse");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"); Arena arena = Arena.ofShared()) {
            MemorySegment mapping = sparseMapping(raf, 32 << 20, arena);

            faultInOrSkip(mapping.asSlice(1 << 20, 1 << 20));

            assertThat(mapping.asSlice(1 << 20, 1 << 20).isLoaded()).isTrue();
            assertThat(pagesInMemory(mapping.asSlice(2 << 20, 30 << 20))).isZero();
            assertThat(pagesInMemory(mapping.asSlice(0, 1 << 20))).isZero();
        }
    }

    /** Faults in a slice of a sparse 8 MiB mapping; returns the VmFlags of the file's mappings afterwards. */
    private List<String> mappingsAfterFaultingInASlice() throws IOException {
        assumeTrue(NativeAccess.canReserveBlocks(), "native access is needed");
        Path file = dir.resolve("whole");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"); Arena arena = Arena.ofShared()) {
            MemorySegment mapping = sparseMapping(raf, 8 << 20, arena);

            faultInOrSkip(mapping.asSlice(2 << 20, 1 << 20));

            return vmFlagsOfMappings(file);
        }
    }

    /** The advice is for the fault-in only: afterwards the mapping is one again. */
    @Test
    void shouldLeaveTheMappingWholeAfterFaultingInASliceOfIt() throws Exception {
        assertThat(mappingsAfterFaultingInASlice()).as("one mapping of the file, as before").hasSize(1);
    }

    /** The advice is for the fault-in only: afterwards readers read ahead in the mapping. */
    @Test
    void shouldLeaveTheMappingReadingAheadAfterFaultingInASliceOfIt() throws Exception {
        assertThat(mappingsAfterFaultingInASlice().getFirst().split(" ")).as("VmFlags").contains("sh")
                .doesNotContain("rr");
    }

    /** A read-write shared mapping of the whole file, made {@code length} bytes long and sparse. */
    private static MemorySegment sparseMapping(RandomAccessFile raf, long length, Arena arena) throws IOException {
        raf.setLength(length);
        return raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
    }

    /** Faults the slice in; skips the test on a kernel without MADV_POPULATE_WRITE. */
    private static void faultInOrSkip(MemorySegment slice) {
        MemoryAdvice.Populated populated = MemoryAdvice.populateForWrite(slice);
        assumeTrue(populated != MemoryAdvice.Populated.UNSUPPORTED, "the kernel has no MADV_POPULATE_WRITE");
        assertThat(populated).isEqualTo(MemoryAdvice.Populated.DONE);
    }

    private static int pagesInMemory(MemorySegment range) {
        int loaded = 0;
        for (long page = 0; page < range.byteSize(); page += 4096) {
            if (range.asSlice(page, 4096).isLoaded()) {
                loaded++;
            }
        }
        return loaded;
    }

    /** The VmFlags of every mapping of {@code file} in this process, from /proc/self/smaps. */
    private static List<String> vmFlagsOfMappings(Path file) throws IOException {
        List<String> flags = new ArrayList<>();
        boolean inMapping = false;
        String name = file.toRealPath().toString();
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                inMapping = line.endsWith(" " + name);
            } else if (inMapping && line.startsWith("VmFlags:")) {
                flags.add(line.substring("VmFlags:".length()).trim());
            }
        }
        return flags;
    }

    /** A sparse mapping larger than the file system: touching its pages would kill the JVM with SIGBUS. */
    @Test
    void shouldReportAFailedFaultInInsteadOfCrashingWhenTheFileSystemIsFull() throws Exception {
        assumeTrue(NativeAccess.canReserveBlocks(), "native access is needed");
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

                MemoryAdvice.Populated populated = MemoryAdvice.populateForWrite(mapping);

                assumeTrue(populated != MemoryAdvice.Populated.UNSUPPORTED, "the kernel has no MADV_POPULATE_WRITE");
                assertThat(populated).isEqualTo(MemoryAdvice.Populated.FAILED);
            }
        } finally {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
