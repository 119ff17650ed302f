package io.cq.core.internal.file;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.table.TableStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which cycles of a queue have a file: a cached listing of its directory, refreshed only when the table store says
 * its cycle range changed. Not thread-safe: {@link CycleFiles} uses it under its own lock.
 */
final class CycleListing {
    private static final long NO_CYCLE = TableStore.NO_CYCLE;

    private final Path directory;
    private final CycleCalendar calendar;
    private final TableStore tableStore;
    private final TreeSet<Long> listed = new TreeSet<>();
    /** The table store's cycle range when the directory was last listed; a change means the listing is stale. */
    private long listedMinCycle;
    private long listedMaxCycle;
    /** The table store's maxCycle when last listed (listedMaxCycle is what readers go by). */
    private long storedMaxCycle;
    private boolean everListed;
    /**
     * The last answer of {@link #nextCycle}, until the listing changes: a tailer that meets a record being written
     * asks on every poll, and asking the set boxes the cycle (16 bytes a poll, which showed as bytes allocated per
     * message read by a method reader following another process's writer).
     */
    private long nextAskedFor;
    private long nextAnswer;
    private boolean nextKnown;

    CycleListing(Path directory, CycleCalendar calendar, TableStore tableStore) {
        this.directory = directory;
        this.calendar = calendar;
        this.tableStore = tableStore;
    }

    /** The cycles with a file as last listed, started or not; {@link #refresh()} first for a current view. */
    TreeSet<Long> listed() {
        return listed;
    }

    long nextCycle(long cycle) {
        ensureCurrent();
        if (nextKnown && cycle == nextAskedFor) {
            return nextAnswer;
        }
        Long next = listed.higher(cycle);
        nextAnswer = next == null || next > listedMaxCycle ? NO_CYCLE : next;
        nextAskedFor = cycle;
        nextKnown = true;
        return nextAnswer;
    }

    long previousCycle(long cycle) {
        ensureCurrent();
        Long previous = listed.lower(cycle);
        return previous == null ? NO_CYCLE : previous;
    }

    long firstCycle() {
        ensureCurrent();
        return listed.isEmpty() || listed.first() > listedMaxCycle ? NO_CYCLE : listed.first();
    }

    long lastCycle() {
        ensureCurrent();
        Long last = listed.floor(listedMaxCycle);
        return last == null ? NO_CYCLE : last;
    }

    NavigableSet<Long> unstartedCycles() {
        refresh();
        // Stepped through rather than copied from a tailSet view: this is on a new process's first roll, and the
        // view's nine classes are not in the JDK's shared archive.
        NavigableSet<Long> unstarted = new TreeSet<>();
        for (Long cycle = listed.higher(listedMaxCycle); cycle != null; cycle = listed.higher(cycle)) {
            unstarted.add(cycle);
        }
        return unstarted;
    }

    NavigableSet<Long> cycles() {
        refresh();
        return new TreeSet<>(listed.headSet(listedMaxCycle, true));
    }

    /** As {@link CycleFiles#requireValidCycleRange()}. */
    void requireValidRange() {
        long max = tableStore.maxCycle();
        long min = tableStore.minCycle();
        if (max == NO_CYCLE) {
            return;
        }
        long largest = Long.MAX_VALUE >>> calendar.rollCycle().sequenceBits();
        Path table = tableStore.path();
        if (max < 0 || max > largest) {
            throw new CorruptQueueException(table, TableStoreDescriptor.MAX_CYCLE_OFFSET, "maxCycle " + max
                    + " is not a cycle of " + calendar.rollCycle() + " (0 to " + largest + ", or -1 for none)");
        }
        if (min != NO_CYCLE && (min < 0 || min > max)) {
            throw new CorruptQueueException(table, TableStoreDescriptor.MIN_CYCLE_OFFSET, "minCycle " + min
                    + " is not between 0 and maxCycle " + max);
        }
        refresh();
        if (!listed.contains(max)) {
            Long newest = listed.isEmpty() ? null : listed.last();
            throw new CorruptQueueException(table, TableStoreDescriptor.MAX_CYCLE_OFFSET, "maxCycle " + max + " names "
                    + fileName(max) + ", which does not exist (" + (newest == null ? "no cycle files"
                    : "the newest cycle file is " + fileName(newest)) + "); refusing to write from it");
        }
    }

    /** As {@link CycleFiles#resetInvalidCycleRange(long)}. */
    Long resetInvalidRange(long currentCycle) {
        try {
            requireValidRange();
            return null;
        } catch (CorruptQueueException e) {
            long stored = tableStore.maxCycle();
            refresh();
            Long newest = listed.floor(currentCycle);
            if (newest == null && !listed.isEmpty()) {
                newest = listed.first();
            }
            tableStore.resetCycleRange(newest == null ? NO_CYCLE : listed.first(),
                    newest == null ? NO_CYCLE : newest);
            refresh();
            return stored;
        }
    }

    private String fileName(long cycle) {
        return calendar.fileName(cycle) + CycleFiles.SUFFIX;
    }

    /**
     * Cycle files appear only under the write lock, before the table store's range is widened to include them,
     * so a listing taken after reading the range holds every file of that range: it is current while the range
     * has not changed. No system call unless it has.
     */
    private void ensureCurrent() {
        if (!everListed || tableStore.maxCycle() != storedMaxCycle || tableStore.minCycle() != listedMinCycle) {
            refresh();
        }
    }

    void refresh() {
        nextKnown = false;
        storedMaxCycle = tableStore.maxCycle();
        listedMinCycle = tableStore.minCycle();
        everListed = true;
        listed.clear();
        for (String name : fileNames()) {
            if (!name.endsWith(CycleFiles.SUFFIX)) {
                continue;
            }
            Optional<Long> cycle = calendar.parseCycle(name.substring(0, name.length() - CycleFiles.SUFFIX.length()));
            if (cycle.isPresent()) {
                listed.add(cycle.get());
            }
        }
        // A newest cycle that names no file is damage (writers refuse it: requireValidCycleRange); readers go by the
        // files, so that what they hold is still read.
        listedMaxCycle = storedMaxCycle == NO_CYCLE || listed.contains(storedMaxCycle) || listed.isEmpty()
                ? storedMaxCycle : listed.last();
    }

    /**
     * The names in the queue's directory. {@code File.list} is one system call's worth of work and loads nothing;
     * a {@code DirectoryStream}, the first in a JVM, costs about 2 ms on a new queue's path to its first excerpt
     * (its classes, and a lambda generated for its iterator). It says nothing of why it failed, so a failure is
     * listed again through {@code Files}, which names the cause.
     */
    private String[] fileNames() {
        String[] names = directory.toFile().list();
        if (names != null) {
            return names;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            List<String> found = new ArrayList<>();
            for (Path path : stream) {
                found.add(path.getFileName().toString());
            }
            return found.toArray(new String[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the cycle files of " + directory + ": " + e.getMessage(), e);
        }
    }
}
