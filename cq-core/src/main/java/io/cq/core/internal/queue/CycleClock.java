package io.cq.core.internal.queue;

import io.cq.core.CycleCalendar;
import io.cq.core.internal.system.BackgroundWork;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ScheduledFuture;

/**
 * Tells appenders when they must read the clock to know their cycle. Reading the system clock costs about 17 ns,
 * a quarter of an append; far from a cycle's end the answer is known anyway. A check on the background thread,
 * every 100 ms, vouches for the current cycle while its end is further away than a margin (a second, or a quarter
 * of a shorter cycle); an appender in that cycle then reads the clock only every {@value #APPENDS_PER_READ}th
 * append, and reads it on every append near the end, in another cycle, or with a clock that is not the system's
 * (docs/file-format.md, "When an appender reads the clock"). The check starts once an appender has appended
 * {@value #APPENDS_BEFORE_WATCHING} excerpts.
 *
 * <p>Thread-safe: one per writable queue.
 */
public final class CycleClock {
    /** A fast appender's bound on how many excerpts may follow a cycle end the check was late to see. */
    static final int APPENDS_PER_READ = 256;
    /** Appends of one appender after which it starts the check. */
    static final int APPENDS_BEFORE_WATCHING = 1_000;
    /** No cycle is vouched for: read the clock. */
    static final long NONE = Long.MIN_VALUE;

    private static final long CHECK_INTERVAL_NANOS = 100_000_000;
    private static final long MAX_MARGIN_MILLIS = 1_000;

    private final Clock clock;
    private final CycleCalendar calendar;
    private final Path directory;
    private final boolean watchable;
    /** The cycle whose end the last check found further away than the margin, or {@link #NONE}. */
    private volatile long vouchedCycle = NONE;
    private ScheduledFuture<?> check;
    private boolean closed;

    private CycleClock(Clock clock, CycleCalendar calendar, Path directory, boolean watchable) {
        this.clock = clock;
        this.calendar = calendar;
        this.directory = directory;
        this.watchable = watchable;
    }

    /**
     * For a queue that appenders write: watchable when its clock is the system's. A test's or an application's own
     * clock may jump at any moment, so it is read on every append.
     */
    static CycleClock of(Clock clock, CycleCalendar calendar, Path directory, boolean writable) {
        boolean system = clock.getClass() == Clock.systemUTC().getClass();
        return new CycleClock(clock, calendar, directory, writable && system);
    }

    /**
     * Starts the background check, once, when an appender has appended enough to gain from it: not when the queue
     * opens, where starting the background thread would cost a new process's first excerpt some milliseconds.
     */
    synchronized void watch() {
        if (!watchable || closed || check != null) {
            return;
        }
        check();
        check = BackgroundWork.every(CHECK_INTERVAL_NANOS, directory, this::check);
    }

    /** The cycle an appender may stay in without reading the clock, or {@link #NONE}. */
    long vouchedCycle() {
        return vouchedCycle;
    }

    /** Runs on the background thread, and once when the check starts. */
    void check() {
        long vouched = NONE;
        try {
            long now = clock.millis();
            long cycle = calendar.cycleAt(now);
            long start = calendar.cycleStartMillis(cycle);
            long end = calendar.cycleStartMillis(cycle + 1);
            long margin = Math.min(MAX_MARGIN_MILLIS, (end - start) / 4);
            boolean indexable = cycle >= 0 && cycle <= calendar.rollCycle().lastCycle();
            if (indexable && now >= start && end - now > margin) {
                vouched = cycle;
            }
        } catch (RuntimeException outsideTheRollCycle) {
            // A clock outside what the roll cycle can index vouches for nothing: appenders read it and report it.
        }
        vouchedCycle = vouched;
    }

    /** Whether a background check vouches for cycles (the system clock, on a queue that appenders write). */
    synchronized boolean isWatched() {
        return check != null;
    }

    synchronized void close() {
        closed = true;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        vouchedCycle = NONE;
    }
}
