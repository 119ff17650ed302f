package io.cq.core.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/** A queue's files read and damaged byte by byte through a channel, as a stray write would, for damage tests. */
public final class QueueFileBytes {
    private QueueFileBytes() {
    }

    /** The queue directory's first cycle file. */
    public static Path cycleFile(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    /** A little-endian long as the file holds it. */
    public static long readLong(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(buffer, position);
            return buffer.getLong(0);
        }
    }

    /** Writes a little-endian long over whatever the file holds there. */
    public static void writeLong(Path file, long position, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), position);
        }
    }
}
