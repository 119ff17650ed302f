package io.cq.core;

import io.cq.core.internal.file.UnusedIndexSpace;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.DiskFillingProcess;
import io.cq.core.support.DiskUsage;
import io.cq.core.support.FinishedCyclesWriter;
import io.cq.core.support.FullDisk;
import io.cq.core.support.QueueCheckingProcess;
import io.cq.core.support.SmallExt4;
import io.cq.core.support.WrittenWhole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Finished cycles whose unused index space was given back hold holes (docs/file-format.md, "Unused index space").
 * On a real 16 MiB ext4 file system (an image this test formats and mounts; it needs root), filled to the last block
 * after they were written, readers in other JVMs, with and without native access, read every excerpt and look up
 * indexes whose slots are holes: on ext4 a hole reads as zeros without taking a block, so nothing fails. A writer
 * then rolls on the full disk, is refused, and goes on once there is room.
 */
class UnusedIndexOnAFullDiskTest {
    private static final int CYCLES = 12;
    private static final int PER_CYCLE = 300;
    private static final int LENGTH = 100;

    @TempDir
    Path dir;
    private SmallExt4 ext4;
    private Path mount;

    @BeforeEach
    void mountSixteenMebibytesOfExt4() throws Exception {
        ext4 = SmallExt4.mount(dir, 16L << 20);
        mount = ext4.path();
    }

    @AfterEach
    void unmount() throws Exception {
        if (ext4 != null) {
            ext4.close();
        }
    }

    @Test
    void shouldReadFinishedCyclesWithHolesInTheirIndexOnAFullExt4FileSystem() throws Exception {
        Path queue = mount.resolve("q");
        List<String> writer = ChildJvm.runToEnd(true, FinishedCyclesWriter.class, queue.toString(),
                String.valueOf(CYCLES), String.valueOf(PER_CYCLE), String.valueOf(LENGTH));
        long total = (long) CYCLES * PER_CYCLE + 1;
        assertThat(writer).contains("written=" + total);
        List<Path> files = cycleFiles(queue);
        for (Path file : files.subList(0, CYCLES)) {
            // 300 excerpts of 104 bytes take 8 pages; with their index blocks whole a MINUTELY cycle would take 72 KiB.
            assertThat(DiskUsage.allocatedBytes(file)).as("allocated bytes of %s", file.getFileName())
                    .isLessThanOrEqualTo(12 * 4096);
        }
        // The newest cycle keeps its index whole: a writer that opens it again writes entries there unreserved.
        assertThat(DiskUsage.allocatedBytes(files.get(CYCLES))).as("the newest cycle")
                .isGreaterThanOrEqualTo(2L * 4096 * Long.BYTES);

        Path filler = mount.resolve("filler");
        FullDisk.fillTheRest(filler);

        for (boolean nativeAccess : new boolean[] {true, false}) {
            List<String> reader = ChildJvm.runToEnd(nativeAccess, QueueCheckingProcess.class, queue.toString(),
                    String.valueOf(LENGTH), "past-the-end");
            assertThat(reader).as("native access: %s", nativeAccess)
                    .contains("read=" + total + " wrong=none intact=true", "found past the end=false")
                    .noneMatch(line -> line.contains("SIGBUS") || line.contains("InternalError")
                            || line.contains("A fatal error"));
        }

        // A writer on the full disk: it rolls (finishing the newest cycle, whose index is given back), is refused
        // once nothing is left, and goes on once the filler is deleted.
        List<String> writing = ChildJvm.runToEnd(true, DiskFillingProcess.class, queue.toString(), filler.toString());
        assertThat(writing).anyMatch(line -> line.matches("accepted=\\d+ refusal=java.io.UncheckedIOException .*"))
                .anyMatch(line -> line.startsWith("resumed total=")).contains("closed")
                .noneMatch(line -> line.contains("SIGBUS") || line.contains("InternalError")
                        || line.contains("A fatal error"));
    }

    @Test
    void shouldLeaveNoSparseCopyBehindWhenAFullDiskHasNoRoomForIt() throws Exception {
        // Without native access a small finished cycle is copied sparse and the copy put in its place: on a full disk
        // the copy fails, is removed, and the cycle keeps its index.
        Path queue = mount.resolve("q");
        List<String> writer = ChildJvm.runToEnd(false, FinishedCyclesWriter.class, queue.toString(), "2", "100",
                String.valueOf(LENGTH));
        assertThat(writer).contains("written=201");
        Path finished = cycleFiles(queue).getFirst();
        byte[] content = WrittenWhole.again(finished);
        FullDisk.fillTheRest(mount.resolve("filler"));

        assertThatThrownBy(() -> UnusedIndexSpace.sparseCopy(finished))
                .isInstanceOf(IOException.class);
        assertThat(queue).isDirectoryNotContaining("glob:**.sparse.tmp");
        assertThat(Files.readAllBytes(finished)).isEqualTo(content);
        assertThat(ChildJvm.runToEnd(false, QueueCheckingProcess.class, queue.toString(), String.valueOf(LENGTH),
                "past-the-end")).contains("read=201 wrong=none intact=true", "found past the end=false");
    }

    private static List<Path> cycleFiles(Path queue) throws IOException {
        try (Stream<Path> files = Files.list(queue)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cq4")).sorted().toList();
        }
    }
}
