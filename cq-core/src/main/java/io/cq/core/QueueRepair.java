package io.cq.core;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link MappedQueue#repair()} skipped: in each damaged cycle file, the range from the first damaged record to
 * where records were written, and the excerpts in it, which are gone. Empty when nothing was damaged.
 *
 * @param skipped         one entry per repaired cycle file
 * @param setAside        cycle files whose header was damaged, renamed out of the queue
 * @param cycleRangeReset the table store's cycle range set back to the cycle files there are, or null when it was
 *                        valid
 * @param indexesRebuilt  cycle files whose records were whole but whose index pointed elsewhere than at them
 */
public record QueueRepair(List<Skipped> skipped, List<SetAside> setAside, CycleRangeReset cycleRangeReset,
                          List<IndexRebuilt> indexesRebuilt) {
    public QueueRepair {
        skipped = List.copyOf(skipped);
        setAside = List.copyOf(setAside);
        indexesRebuilt = List.copyOf(indexesRebuilt);
    }

    /** A repair that rebuilt no index. */
    public QueueRepair(List<Skipped> skipped, List<SetAside> setAside, CycleRangeReset cycleRangeReset) {
        this(skipped, setAside, cycleRangeReset, List.of());
    }

    /** A repair that skipped these ranges, set no file aside and found the table store's cycle range valid. */
    public QueueRepair(List<Skipped> skipped) {
        this(skipped, List.of(), null);
    }

    /**
     * A cycle file whose own header could not be read, so that no record of it could be: renamed out of the queue,
     * its bytes kept. Its excerpts are gone from the queue.
     *
     * @param file    the cycle file as it was named
     * @param renamed its name now: {@code <name>.cq4.damaged}, or {@code .damaged.1} and so on when that is taken
     * @param problem what was wrong with its header
     */
    public record SetAside(Path file, Path renamed, String problem) {
    }

    /**
     * The table store's newest cycle named a file that is gone (or the range was out of bounds), so no writer could
     * open the queue; the range was set to the cycle files there are.
     *
     * @param tableStore   the table store
     * @param storedNewest the newest cycle it named
     * @param newest       the newest cycle with a file, now named ({@code -1}: there are no cycle files)
     */
    public record CycleRangeReset(Path tableStore, long storedNewest, long newest) {
    }

    /**
     * One skipped range.
     *
     * @param file            the cycle file
     * @param from            where its readable records now end (the first damaged record was there)
     * @param to              where records had been written up to, by its write position hint (at least {@code from})
     * @param excerptsSkipped excerpts its writers had published that can no longer be read
     */
    public record Skipped(Path file, long from, long to, long excerptsSkipped) {
    }

    /**
     * A cycle file whose index (a primary slot or a secondary entry) pointed at something other than the record it
     * should, which keeps appenders out and readers from seeking through it: set to what the records say. No
     * excerpt is lost.
     *
     * @param file     the cycle file
     * @param position the first slot or entry that was set to another value
     */
    public record IndexRebuilt(Path file, long position) {
    }

    /** Whether anything was skipped, set aside, reset or rebuilt. */
    public boolean repairedAnything() {
        return !skipped.isEmpty() || !setAside.isEmpty() || cycleRangeReset != null || !indexesRebuilt.isEmpty();
    }
}
