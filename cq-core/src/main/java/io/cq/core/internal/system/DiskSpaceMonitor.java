package io.cq.core.internal.system;

import io.cq.core.DiskSpace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Watches free space under a queue. Checked whenever a step of a cycle file is reserved (never per append), and
 * on request; logs one warning when free space falls below the threshold and one message when it recovers, not
 * one per check. The check runs under the write lock, so it only reads the file system's figures: the lines are
 * logged by the background thread, and a stalled log never holds up a writer. Thread-safe.
 */
public final class DiskSpaceMonitor {
    private final Path directory;
    private final long warningBytes;
    private final double warningPercent;
    private FileStore store;
    private boolean low;
    /** As last read by {@link #observe()}. */
    private long total;
    private long threshold;

    public DiskSpaceMonitor(Path directory, long warningBytes, double warningPercent) {
        this.directory = directory;
        this.warningBytes = warningBytes;
        this.warningPercent = warningPercent;
    }

    /** The file store of the directory, found once. */
    public synchronized FileStore store() throws IOException {
        if (store == null) {
            store = Files.getFileStore(directory);
        }
        return store;
    }

    /** Reads the file system's figures now, logging a threshold crossing. */
    public synchronized DiskSpace check() {
        long usable = observe();
        return new DiskSpace(directory, usable, total, threshold, low);
    }

    /**
     * {@link #check()} without the report, for an appender after it reserved: no {@link DiskSpace} made (nor its class
     * loaded on the path to a new process's first excerpt).
     *
     * @return the usable bytes
     */
    public synchronized long observe() {
        try {
            long usable = store().getUsableSpace();
            // Locals for the log lines: they run later, on the background thread, without this monitor.
            long total = store.getTotalSpace();
            long threshold = Math.max(warningBytes, (long) (total * warningPercent / 100.0));
            this.total = total;
            this.threshold = threshold;
            boolean nowLow = usable < threshold;
            if (nowLow && !low) {
                BackgroundWork.submit(() -> Log.warning(DiskSpaceMonitor.class,
                        "free space under queue {0} is low: {1} MiB of {2} MiB left, below the "
                        + "warning threshold of {3} MiB", directory, String.valueOf(usable >> 20),
                        String.valueOf(total >> 20), String.valueOf(threshold >> 20)));
            } else if (!nowLow && low) {
                BackgroundWork.submit(() -> Log.info(DiskSpaceMonitor.class,
                        "free space under queue {0} is back above the warning threshold: {1} MiB "
                        + "left", directory, String.valueOf(usable >> 20)));
            }
            low = nowLow;
            return usable;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the free space under " + directory + ": " + e.getMessage(), e);
        }
    }
}
