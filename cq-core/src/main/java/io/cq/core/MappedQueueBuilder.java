package io.cq.core;

import io.cq.core.internal.format.CycleFileLayout;
import io.cq.core.internal.store.Limits;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * Settings for opening a {@link MappedQueue}. Every setting has a default; {@link #build()} checks them all
 * at once and names the setting and its value in any error. Not thread-safe; one builder opens one queue.
 */
public final class MappedQueueBuilder {
    /** 64 MiB: the largest excerpt is then 16 MiB. */
    public static final long DEFAULT_BLOCK_SIZE = 64L << 20;
    public static final int DEFAULT_INDEX_SPACING = 16;
    public static final RollCycle DEFAULT_ROLL_CYCLE = RollCycle.DAILY;

    private final Path directory;
    private RollCycle rollCycle = DEFAULT_ROLL_CYCLE;
    private Clock clock = Clock.systemUTC();
    private long blockSize = DEFAULT_BLOCK_SIZE;
    private int indexSpacing = DEFAULT_INDEX_SPACING;
    private boolean readOnly;

    MappedQueueBuilder(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /**
     * How the queue is cut into files (default {@link RollCycle#DAILY}). A queue keeps the roll cycle it was
     * created with: opening it with another one logs a warning and uses the persisted one.
     */
    public MappedQueueBuilder rollCycle(RollCycle rollCycle) {
        this.rollCycle = Objects.requireNonNull(rollCycle, "rollCycle");
        return this;
    }

    /** The clock that decides the current cycle (default {@link Clock#systemUTC()}); tests inject their own. */
    public MappedQueueBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * Bytes mapped at a time and by which cycle files grow (default 64 MiB); a multiple of 4096, at least
     * 64 KiB. The largest excerpt is a quarter of it. Applies to cycle files created from now on.
     */
    public MappedQueueBuilder blockSize(long blockSize) {
        this.blockSize = blockSize;
        return this;
    }

    /**
     * Every how many excerpts the index records a position (default 16; a power of two, so the hot path tests it
     * with a mask). Smaller finds an excerpt with fewer
     * steps; larger indexes more excerpts per cycle. Applies to cycle files created from now on.
     */
    public MappedQueueBuilder indexSpacing(int indexSpacing) {
        this.indexSpacing = indexSpacing;
        return this;
    }

    /** Open an existing queue for reading only: no appenders, no named tailers, nothing written (default false). */
    public MappedQueueBuilder readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        return this;
    }

    /**
     * Checks the settings and opens the queue, creating its directory and table store when they do not exist
     * (unless read-only).
     *
     * @throws IllegalArgumentException for a setting out of range, naming it and its value
     * @throws QueueException           when the directory cannot be used as a queue, saying why
     */
    public MappedQueue build() {
        requireBlockSizeFits(blockSize, rollCycle);
        if (indexSpacing < 1 || indexSpacing > 1 << 20 || Integer.bitCount(indexSpacing) != 1) {
            throw new IllegalArgumentException("indexSpacing=" + indexSpacing + " must be a power of two from 1 to "
                    + (1 << 20));
        }
        return new MappedQueue(directory, rollCycle, clock, blockSize, indexSpacing, readOnly);
    }

    /** Also checked once the queue's persisted roll cycle is known, which may differ from the requested one. */
    static void requireBlockSizeFits(long blockSize, RollCycle rollCycle) {
        long indexBlock = CycleFileLayout.indexBlockLength(rollCycle.indexCount()) + 64L;
        long smallestBlock = Math.max(Limits.MIN_BLOCK_SIZE, roundUpToPage(indexBlock * 4));
        if (blockSize < smallestBlock || blockSize % Limits.PAGE != 0 || blockSize > 1L << 40) {
            throw new IllegalArgumentException("blockSize=" + blockSize + " must be a multiple of " + Limits.PAGE
                    + " from " + smallestBlock + " (for rollCycle=" + rollCycle + ") to 2^40");
        }
    }

    private static long roundUpToPage(long bytes) {
        return (bytes + Limits.PAGE - 1) / Limits.PAGE * Limits.PAGE;
    }
}
