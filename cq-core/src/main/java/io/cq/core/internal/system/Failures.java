package io.cq.core.internal.system;

import io.cq.core.AsyncModeMismatchException;
import io.cq.core.CycleCalendar;
import io.cq.core.NamedTailerInUseException;
import io.cq.core.QueueClosedException;
import io.cq.core.QueueException;
import io.cq.core.QueueInterruptedException;
import io.cq.core.RollTimeMismatchException;
import io.cq.core.WriteLockTimeoutException;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Makes the exceptions that classes on the path to a first excerpt throw only when something goes wrong, typed as
 * their common {@link QueueException}. The JVM verifies a whole class when it loads it, and a {@code throw new X(...)}
 * anywhere in it loads {@code X} then, to check that it is a {@code Throwable}: each such class is about 0.15 ms of a
 * new process's start (docs/performance.md, "Start-up"). Made here, an exception's class is loaded when it is thrown.
 * The exceptions are what their factory's name says; callers' javadoc names them.
 */
public final class Failures {
    private Failures() {
    }

    /** An {@link AsyncModeMismatchException}. */
    public static QueueException asyncModeMismatch(String message, boolean inForce) {
        return new AsyncModeMismatchException(message, inForce);
    }

    /** A {@link RollTimeMismatchException}. */
    public static QueueException rollTimeMismatch(String message, CycleCalendar inForce) {
        return new RollTimeMismatchException(message, inForce);
    }

    /** A {@link QueueClosedException}. */
    public static QueueException closed(String message) {
        return new QueueClosedException(message);
    }

    /** A {@link NamedTailerInUseException}. */
    public static QueueException namedTailerInUse(String queue, String name, String holder) {
        return new NamedTailerInUseException(queue, name, holder);
    }

    /** A {@link QueueInterruptedException}. */
    public static QueueException interrupted(String message) {
        return new QueueInterruptedException(message);
    }

    /** A {@link WriteLockTimeoutException}. */
    public static QueueException writeLockTimeout(Path directory, Duration waited, String holder) {
        return new WriteLockTimeoutException(directory, waited, holder);
    }
}
