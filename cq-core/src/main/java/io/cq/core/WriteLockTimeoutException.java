package io.cq.core;

import java.nio.file.Path;
import java.time.Duration;

/**
 * An appender waited longer than {@link QueueSettings#writeLockTimeout()} for the queue's write lock, which a live
 * appender holds (a dead holder's lock is taken over well before that). The live holder is never taken over; the
 * message names it (pid and host, where the queue records them). Nothing was written.
 */
public final class WriteLockTimeoutException extends QueueException {
    private final transient Path directory;
    private final Duration waited;
    private final String holder;

    public WriteLockTimeoutException(Path directory, Duration waited, String holder) {
        super("waited " + waited.toMillis() + " ms for the write lock of queue " + directory + ", held by "
                + holder + ", which is alive: it was not taken over (see write-lock-timeout)");
        this.directory = directory;
        this.waited = waited;
        this.holder = holder;
    }

    /** The queue's directory. */
    public Path directory() {
        return directory;
    }

    /** How long the appender waited. */
    public Duration waited() {
        return waited;
    }

    /** The holder, as the queue records it: "pid 123 on host-a (process slot 0)". */
    public String holder() {
        return holder;
    }
}
