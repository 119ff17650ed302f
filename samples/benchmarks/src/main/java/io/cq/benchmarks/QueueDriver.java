package io.cq.benchmarks;

import java.nio.file.Path;

/**
 * One queue implementation as the benchmarks drive it: the same operations, with the fastest raw-bytes API
 * each library offers, so that cq and Chronicle Queue run the same workload. Not thread-safe: one appender
 * thread and one reader thread each use their own driver method set.
 */
public interface QueueDriver extends AutoCloseable {
    /** Appends one excerpt: an 8-byte value followed by the rest of {@code payload}. Returns its index. */
    long append(long value, byte[] payload);

    /** Reads the next excerpt and returns its first 8 bytes plus its length, or -1 when there is none. */
    long read();

    /**
     * Reads the next excerpt through the library's read context, copying its bytes into {@code into} (as large as
     * the largest excerpt) as an application that keeps them does; returns the length copied, or -1 when there is
     * none.
     */
    int readCopy(byte[] into);

    /**
     * Reads up to {@code limit} excerpts the fastest way the library drains a queue, adding each one's first 8 bytes
     * plus its length to {@link #checksum()}; returns how many it read (0 when there is none).
     */
    int readBatch(int limit);

    /** The sum {@link #readBatch} keeps, for the benchmark to consume. */
    long checksum();

    /** Moves the reader to an index; false when there is no such excerpt. */
    boolean moveToIndex(long index);

    /** Moves the reader to the start. */
    void toStart();

    @Override
    void close();

    /** The implementations, by the name benchmarks take as a parameter. */
    static QueueDriver open(String implementation, Path directory) {
        return switch (implementation) {
            case "cq" -> new CqDriver(directory, false);
            case "cq+pretouch" -> new CqDriver(directory, true);
            case "cq-async" -> new CqDriver(directory, false, true);
            case "cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4" ->
                    new CqDriver(directory, CodecVariants.codecs(implementation));
            case "chronicle" -> new ChronicleDriver(directory);
            case "floor" -> new FloorDriver(directory);
            default -> throw new IllegalArgumentException("implementation=" + implementation
                    + " must be cq, cq+pretouch, cq-async, " + String.join(", ", CodecVariants.NAMES)
                    + ", chronicle or floor");
        };
    }
}
