package io.cq.core;

import java.time.Instant;
import java.util.Objects;

/**
 * Where a tailer starts reading: {@link ExcerptTailer#moveTo(StartPosition)} moves it there. The plain positions
 * ({@link #start()}, {@link #end()}, {@link #index(long)}, {@link #time(Instant)}) apply every time; a resuming
 * one ({@link #resumeOr(StartPosition)}, {@link #resumeOrStart()}, {@link #resumeOrEnd()}) leaves a named tailer
 * where it last committed, and applies its fallback only to a tailer that never committed a position (like
 * Kafka's {@code auto.offset.reset}). Immutable.
 */
public final class StartPosition {
    /** The kinds of position; with {@link #of(Kind, long, Instant)}, for positions read from configuration. */
    public enum Kind {
        /** The first excerpt of the queue. */
        START,
        /** After the last excerpt: only excerpts appended from now on. */
        END,
        /** The excerpt with a given index. */
        INDEX,
        /**
         * The first excerpt of the cycle that contains an instant, or of the next cycle that has a file: excerpts
         * carry no time of their own, so the roll cycle is the resolution.
         */
        TIME
    }

    private static final StartPosition START = new StartPosition(Kind.START, -1, null, false);
    private static final StartPosition END = new StartPosition(Kind.END, -1, null, false);

    private final Kind kind;
    private final long index;
    private final Instant time;
    private final boolean resumes;

    private StartPosition(Kind kind, long index, Instant time, boolean resumes) {
        this.kind = kind;
        this.index = index;
        this.time = time;
        this.resumes = resumes;
    }

    /** The first excerpt of the queue. */
    public static StartPosition start() {
        return START;
    }

    /** After the last excerpt: only excerpts appended from now on. */
    public static StartPosition end() {
        return END;
    }

    /**
     * The excerpt with this index.
     *
     * @throws IllegalArgumentException for a negative index
     */
    public static StartPosition index(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index=" + index + " must not be negative");
        }
        return new StartPosition(Kind.INDEX, index, null, false);
    }

    /** The first excerpt of the cycle containing {@code time}, or of the next cycle that has a file. */
    public static StartPosition time(Instant time) {
        return new StartPosition(Kind.TIME, -1, Objects.requireNonNull(time, "time"), false);
    }

    /**
     * A position of a kind given at run time (an annotation, a configuration file).
     *
     * @param index the index, for {@link Kind#INDEX}; ignored otherwise
     * @param time  the instant, for {@link Kind#TIME}; ignored otherwise
     */
    public static StartPosition of(Kind kind, long index, Instant time) {
        return switch (Objects.requireNonNull(kind, "kind")) {
            case START -> start();
            case END -> end();
            case INDEX -> index(index);
            case TIME -> time(time);
        };
    }

    /** Resume a named tailer where it last committed; one that never committed starts at {@code fallback}. */
    public static StartPosition resumeOr(StartPosition fallback) {
        StartPosition plain = Objects.requireNonNull(fallback, "fallback");
        return new StartPosition(plain.kind, plain.index, plain.time, true);
    }

    /** Resume a named tailer; the first time, read the whole queue. */
    public static StartPosition resumeOrStart() {
        return resumeOr(START);
    }

    /** Resume a named tailer; the first time, read only excerpts appended from now on. */
    public static StartPosition resumeOrEnd() {
        return resumeOr(END);
    }

    /** The kind of position, or of the fallback of a resuming one. */
    public Kind kind() {
        return kind;
    }

    /** The index of an {@link Kind#INDEX} position, else -1. */
    public long index() {
        return index;
    }

    /** The instant of a {@link Kind#TIME} position, else null. */
    public Instant time() {
        return time;
    }

    /** Whether a named tailer that committed a position before stays there. */
    public boolean resumes() {
        return resumes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StartPosition that && kind == that.kind && index == that.index
                && Objects.equals(time, that.time) && resumes == that.resumes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, index, time, resumes);
    }

    @Override
    public String toString() {
        String plain = switch (kind) {
            case START, END -> kind.name().toLowerCase();
            case INDEX -> "index(0x" + Long.toHexString(index) + ")";
            case TIME -> "time(" + time + ")";
        };
        return resumes ? "resumeOr(" + plain + ")" : plain;
    }
}
