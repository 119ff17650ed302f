package io.cq.core;

import java.nio.file.Path;

/**
 * Free space on the file system that holds a queue, against the queue's warning thresholds.
 *
 * @param path          the queue's directory
 * @param usableBytes   bytes this process may still write there
 * @param totalBytes    size of the file system
 * @param warningBytes  the free-space threshold in bytes that applies (the larger of the configured amount and
 *                      percentage)
 * @param low           whether free space is below the threshold
 */
public record DiskSpace(Path path, long usableBytes, long totalBytes, long warningBytes, boolean low) {
    /** Free space as a percentage of the file system's size. */
    public double usablePercent() {
        return totalBytes == 0 ? 0 : usableBytes * 100.0 / totalBytes;
    }
}
