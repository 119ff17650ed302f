package io.cq.core;

import java.nio.file.Path;
import java.time.Duration;

/**
 * An async queue's buffer stayed full for the whole write-lock timeout: its drainer is stalled behind storage, or no
 * process drains it (every process on the queue opened it with {@link MappedQueueBuilder#asyncDrain(boolean)} off).
 * Nothing was written; the appender remains usable.
 */
public final class AsyncBufferFullException extends QueueException {
    private final Path directory;

    public AsyncBufferFullException(Path directory, long bufferSize, Duration waited, boolean drained) {
        super("waited " + waited.toMillis() + " ms for room in the " + bufferSize + "-byte async buffer of queue "
                + directory + ": " + (drained
                ? "its drainer is not keeping up (storage stalled or slower than the writers); nothing was written"
                : "no process is draining it (every process opened the queue with asyncDrain off); nothing was "
                        + "written. Open the queue in a process that drains"));
        this.directory = directory;
    }

    /** The queue's directory. */
    public Path directory() {
        return directory;
    }
}
