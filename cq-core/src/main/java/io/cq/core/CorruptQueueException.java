package io.cq.core;

import java.nio.file.Path;

/** A queue file does not hold what the format requires at some position. */
public final class CorruptQueueException extends QueueException {
    private final transient Path file;
    private final long position;
    private final String problem;

    public CorruptQueueException(Path file, long position, String problem) {
        super(file + " at position " + position + ": " + problem);
        this.file = file;
        this.position = position;
        this.problem = problem;
    }

    /** What is wrong there, without the file and position the message starts with. */
    public String problem() {
        return problem;
    }

    /** The damaged file. */
    public Path file() {
        return file;
    }

    /** Byte position in the file where the damage was found. */
    public long position() {
        return position;
    }
}
