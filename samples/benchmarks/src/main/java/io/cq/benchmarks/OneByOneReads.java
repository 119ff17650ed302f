package io.cq.benchmarks;

/**
 * {@link QueueDriver#readBatch} for a library without a batch read: its one-by-one read loop, and the checksum the
 * benchmark consumes.
 */
final class OneByOneReads {
    private long checksum;

    int read(QueueDriver driver, int limit) {
        int read = 0;
        while (read < limit) {
            long value = driver.read();
            if (value < 0) {
                break;
            }
            checksum += value;
            read++;
        }
        return read;
    }

    long checksum() {
        return checksum;
    }
}
