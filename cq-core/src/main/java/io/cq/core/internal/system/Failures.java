package io.cq.core.internal.system;

import io.cq.core.AsyncModeMismatchException;
import io.cq.core.CycleCalendar;
import io.cq.core.NamedTailerInUseException;
import io.cq.core.QueueClosedException;
import io.cq.core.QueueException;
import io.cq.core.QueueInterruptedException;
import io.cq.core.RollTimeMismatchException;
import io.cq.core.WriteLockTimeoutException;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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

    /**
     * What went wrong with a file, in words: the JDK's exceptions for a refused permission or a missing file carry
     * only the path as their message, which says nothing once the path is already in the sentence.
     */
    public static String describe(IOException e) {
        String reason = e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NoSuchFileException ? "no such file or directory"
                : e instanceof FileAlreadyExistsException ? "it already exists"
                : e instanceof NotDirectoryException ? "not a directory"
                : null;
        if (reason == null) {
            return String.valueOf(e.getMessage());
        }
        return e instanceof FileSystemException fs && fs.getReason() != null ? reason + " (" + fs.getReason() + ")"
                : reason;
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
