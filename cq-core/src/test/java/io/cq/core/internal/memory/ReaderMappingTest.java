package io.cq.core.internal.memory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readers never change a file's length (docs/file-format.md, "Reserving and shrinking"). A reader sizes its mapping by
 * the length it reads first; mapped read-write, a file another process cut to its records meanwhile would be made that
 * long again, and a finished cycle could no longer give back its unused index space. So readers map through a
 * read-only channel, even in a process that writes.
 */
class ReaderMappingTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    private interface MappedCheck {
        void check(MappedFile mapped, Path path) throws IOException;
    }

    /** A sparse 1 MiB file, open read-write as a writing process opens it, mapped in chunks of 16 MiB. */
    private void withAWritableMebibyteFile(MappedCheck check) throws IOException {
        Path path = sparseFile("cycle", MIB);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedFile mapped = new MappedFile(path, channel, true, 16 * MIB, 0, 512 * 1024, null);
            try {
                check.check(mapped, path);
            } finally {
                mapped.close();
            }
        }
    }

    @Test
    void shouldMapForReadersOfAWritableFileOnlyWhatTheFileHolds() throws IOException {
        withAWritableMebibyteFile((mapped, path) -> {
            MemorySegment read = mapped.readableChunk(0, 4096);

            assertThat(read.isReadOnly()).as("a reader's mapping cannot lengthen the file").isTrue();
            assertThat(read.byteSize()).isEqualTo(MIB);
            assertThat(Files.size(path)).isEqualTo(MIB);
        });
    }

    @Test
    void shouldLengthenTheFileToAWritersWholeChunk() throws IOException {
        withAWritableMebibyteFile((mapped, path) -> {
            mapped.readableChunk(0, 4096);

            MemorySegment written = mapped.chunk(0);

            assertThat(written.isReadOnly()).isFalse();
            assertThat(written.byteSize()).isEqualTo(16 * MIB);
            assertThat(Files.size(path)).as("a writer's whole chunk makes the file that long").isEqualTo(16 * MIB);
        });
    }

    @Test
    void shouldGiveReadersTheWritersMappingOnceThereIsOne() throws IOException {
        withAWritableMebibyteFile((mapped, path) -> {
            mapped.readableChunk(0, 4096);
            MemorySegment written = mapped.chunk(0);

            assertThat(mapped.readableChunk(0, 4096)).as("readers then read the writer's mapping").isSameAs(written);
        });
    }

    @Test
    void shouldMapOnlyWhatIsLeftOfAFileAnotherProcessCut() throws IOException {
        Path path = sparseFile("finished", 16 * MIB);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileChannel other = FileChannel.open(path, StandardOpenOption.WRITE)) {
            MappedFile mapped = new MappedFile(path, channel, true, 16 * MIB, 0, 512 * 1024, null);
            try {
                other.truncate(64 << 10); // the cut on roll, by the lock holder in another process

                assertThat(mapped.readableChunk(0, 128 << 10)).as("what the file no longer holds").isNull();
                assertThat(mapped.readableChunk(0, 4096).byteSize()).isEqualTo(64 << 10);
                assertThat(Files.size(path)).isEqualTo(64 << 10);
            } finally {
                mapped.close();
            }
        }
    }

    @Test
    void shouldAnswerNothingInsteadOfFailingWhereAReadOnlyProcessMeetsACutFile() throws IOException {
        Path path = sparseFile("read-only", 64 << 10);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            MappedFile mapped = new MappedFile(path, channel, false, 16 * MIB, 0, 512 * 1024, null);
            try {
                assertThat(mapped.readableChunk(0, 128 << 10)).isNull();
                assertThat(mapped.readableChunk(0, 4096).byteSize()).isEqualTo(64 << 10);
            } finally {
                mapped.close();
            }
        }
    }

    private Path sparseFile(String name, long length) throws IOException {
        Path path = dir.resolve(name);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), length - 1);
        }
        return path;
    }
}
