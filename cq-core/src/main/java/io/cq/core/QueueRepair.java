package io.cq.core;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link MappedQueue#repair()} skipped: in each damaged cycle file, the range from the first damaged record to
 * where records were written, and the excerpts in it, which are gone. Empty when nothing was damaged.
 *
 * @param skipped one entry per repaired cycle file
 */
public record QueueRepair(List<Skipped> skipped) {
    public QueueRepair {
        skipped = List.copyOf(skipped);
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

    /** Whether anything was skipped. */
    public boolean repairedAnything() {
        return !skipped.isEmpty();
    }
}
