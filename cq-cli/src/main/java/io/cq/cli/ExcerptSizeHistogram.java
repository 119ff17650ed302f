package io.cq.cli;

import io.cq.core.CorruptQueueException;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;

import java.util.SplittableRandom;

/**
 * How many excerpts of a queue fall in each power-of-two range of sizes (0-15 bytes, 16-31, 32-63, ...), read
 * through a tailer: a read context gives an excerpt's length from its header, so payloads are never copied, and
 * memory stays one counter per range whatever the queue's size.
 *
 * <p>A queue holding more excerpts than the limit is sampled: its excerpts, in order across all cycles, are cut into
 * runs of n (the fewest that keep the samples within the limit) and one excerpt at random is read from each run.
 * Random within the run, because excerpts often come in a pattern (a quote then a trade), which every n-th excerpt
 * could follow; the seed is fixed, so the same queue gives the same histogram. The sample is read by {@link
 * Route#WALK walking} over every header or by {@link Route#JUMP jumping} from one to the next through the index,
 * whichever touches fewer pages of the files (see {@link #route}).
 */
final class ExcerptSizeHistogram {
    /** How the excerpts to read are reached. */
    enum Route {
        /** Read every header in order, keep the sampled ones: the cheapest way while runs are short. */
        WALK,
        /** Move to each sampled excerpt by its index: what is read grows with the sample, not with the queue. */
        JUMP
    }

    /**
     * Bytes of a run from which jumping beats walking: walking reads every page of the run, a jump an index entry and
     * a page or two. Measured with cq stats on 20M excerpts of 24 and 200 bytes (44 bytes a record on average) in
     * the page cache, a jump took about 2 µs and walking about 17 ns a record, so jumping pays from runs of about
     * 120 records; 8 KiB is about 190 such records, and from a queue that is not cached, walking reads every page.
     */
    static final long JUMP_RUN_BYTES = 8 * 1024;
    /** Range 0 is 0-15 bytes, range r > 0 is 2^(r+3) to 2^(r+4) - 1: up to an excerpt of 2^63 - 1 bytes. */
    private static final int RANGES = 60;
    private static final int FIRST_RANGE_BITS = 4;
    private static final long SEED = 0x5EED_C0FFEEL;

    private final long[] counts = new long[RANGES];
    private final long excerpts;
    private final long every;
    private final SplittableRandom random = new SplittableRandom(SEED);
    private long read;
    private long minBytes = Long.MAX_VALUE;
    private long maxBytes;
    private long totalBytes;
    private CorruptQueueException damage;

    private ExcerptSizeHistogram(long excerpts, long limit) {
        this.excerpts = excerpts;
        this.every = Math.ceilDiv(Math.max(excerpts, 1), limit);
    }

    /**
     * Reads the sizes of at most {@code limit} of the queue's first {@code excerpts} excerpts (those it held when
     * counted: excerpts appended since are left out), of every one when they are no more than that. Damage stops
     * the reading, and the histogram holds what was read before it ({@link #damage()}).
     */
    static ExcerptSizeHistogram read(MappedQueue queue, long excerpts, long limit) {
        long every = Math.ceilDiv(Math.max(excerpts, 1), limit);
        long bytesPerExcerpt = excerpts == 0 ? 0 : queue.diskUsage().writtenBytes() / excerpts;
        return read(queue, excerpts, limit, route(every, bytesPerExcerpt, queue.indexSpacing()));
    }

    /** As {@link #read(MappedQueue, long, long)}, by the route given. */
    static ExcerptSizeHistogram read(MappedQueue queue, long excerpts, long limit, Route route) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit=" + limit + " must be positive");
        }
        ExcerptSizeHistogram histogram = new ExcerptSizeHistogram(excerpts, limit);
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (route == Route.WALK) {
                histogram.walk(tailer);
            } else {
                histogram.jump(queue, tailer);
            }
        } catch (CorruptQueueException e) {
            histogram.damage = e;
        }
        return histogram;
    }

    /**
     * Jump when a run spans {@link #JUMP_RUN_BYTES} or more of the files ({@code bytesPerExcerpt} is the queue's
     * written bytes per excerpt, its headers and indexes included) and at least the index spacing: a jump lands on
     * an index entry and steps over up to spacing - 1 headers from there anyway.
     */
    static Route route(long every, long bytesPerExcerpt, int indexSpacing) {
        boolean longRun = every >= indexSpacing && every * Math.max(bytesPerExcerpt, 1) >= JUMP_RUN_BYTES;
        return longRun ? Route.JUMP : Route.WALK;
    }

    private void walk(ExcerptTailer tailer) {
        long target = pick(0);
        for (long ordinal = 0; ordinal < excerpts; ordinal++) {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return;
                }
                if (ordinal == target) {
                    add(context.bytes().length());
                    target = pick(ordinal - ordinal % every + every);
                }
            }
        }
    }

    /** Counts each cycle's excerpts to turn a sample's place in the queue into an index: cycle, sequence 0 to n-1. */
    private void jump(MappedQueue queue, ExcerptTailer tailer) {
        RollCycle roll = queue.rollCycle();
        long runStart = 0;
        long target = pick(runStart);
        long cycleStart = 0;
        for (long cycle : queue.cycles()) {
            long first = roll.toIndex(cycle, 0);
            long count = Math.min(queue.countExcerpts(first, roll.toIndex(cycle + 1, 0)), excerpts - cycleStart);
            while (target < cycleStart + count) {
                if (!tailer.moveToIndex(first + target - cycleStart)) {
                    return;
                }
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        return;
                    }
                    add(context.bytes().length());
                }
                runStart += every;
                target = pick(runStart);
            }
            cycleStart += count;
            if (cycleStart >= excerpts) {
                return;
            }
        }
    }

    /** The excerpt to read from the run starting at {@code runStart}; past the end when there is no such run. */
    private long pick(long runStart) {
        long runEnd = Math.min(runStart + every, excerpts);
        return runStart >= runEnd ? Long.MAX_VALUE : runStart + random.nextLong(runEnd - runStart);
    }

    private void add(long bytes) {
        counts[range(bytes)]++;
        read++;
        minBytes = Math.min(minBytes, bytes);
        maxBytes = Math.max(maxBytes, bytes);
        totalBytes += bytes;
    }

    static int range(long bytes) {
        int bits = Long.SIZE - Long.numberOfLeadingZeros(bytes);
        return Math.max(0, bits - FIRST_RANGE_BITS);
    }

    /** The smallest size in range {@code r}. */
    static long fromBytes(int r) {
        return r == 0 ? 0 : 1L << (r + FIRST_RANGE_BITS - 1);
    }

    /** The largest size in range {@code r}. */
    static long toBytes(int r) {
        return (1L << (r + FIRST_RANGE_BITS)) - 1;
    }

    /** The first range to show: that of the smallest excerpt read (0 when none was). */
    int firstRange() {
        return read == 0 ? 0 : range(minBytes);
    }

    /** The last range to show: that of the largest excerpt read (-1, none, when none was). */
    int lastRange() {
        return read == 0 ? -1 : range(maxBytes);
    }

    long count(int r) {
        return counts[r];
    }

    /** Excerpts whose size was read. */
    long read() {
        return read;
    }

    /** Excerpts the queue held when counted: all were read when {@link #every()} is 1 and no damage stopped it. */
    long excerpts() {
        return excerpts;
    }

    /** One excerpt was read from each run of this many. */
    long every() {
        return every;
    }

    long minBytes() {
        return read == 0 ? 0 : minBytes;
    }

    long maxBytes() {
        return maxBytes;
    }

    long totalBytes() {
        return totalBytes;
    }

    /** The damage that stopped the reading, or null when it went to the end. */
    CorruptQueueException damage() {
        return damage;
    }
}
