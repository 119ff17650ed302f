package io.cq.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A persisted queue in memory-mapped files under one directory: one file per {@link RollCycle cycle} plus a
 * table store ({@code metadata.cq4t}) with the queue's settings, its write lock and its named tailers. Any
 * number of threads and processes on the machine may append to and tail the same directory at once. The file
 * format and the protocol are described in {@code docs/file-format.md}; how the code is laid out, in
 * {@code docs/architecture.md}.
 *
 * <pre>{@code
 * try (MappedQueue queue = MappedQueue.builder(Path.of("data/orders")).build();
 *      ExcerptAppender appender = queue.createAppender()) {
 *     appender.writeText("hello");
 * }
 * }</pre>
 *
 * <p>Thread-safe. Appenders and tailers are not: each belongs to one thread at a time. Closing the queue closes
 * every appender and tailer it gave out; anything used after that throws {@link QueueClosedException}.
 */
public interface MappedQueue extends AutoCloseable {

    /** Starts the settings for a queue in {@code directory}. */
    static MappedQueueBuilder builder(Path directory) {
        return new MappedQueueBuilder(directory);
    }

    /**
     * Starts getting ready, on two background threads and once per JVM, what opening the first queue of a JVM needs
     * from the JDK (its memory-access machinery: tens of milliseconds the first time). {@link #builder} does it too
     * (loading the builder's class starts it);
     * a program that does other work first (parsing its command line, starting a framework) and opens a queue later
     * calls this at its start, so that the two overlap. Changes when that work is done, never what a queue does.
     */
    static void warmUp() {
        MappedQueueBuilder.warmUp();
    }

    /**
     * A new appender that the caller owns: used by one thread at a time (it may be handed over), and closed by the
     * caller when done (closing the queue closes it too). Appenders are cheap; the write lock orders the excerpts
     * of all of them, in every process.
     *
     * @throws QueueException when the queue was opened read-only
     */
    ExcerptAppender createAppender();

    /**
     * The calling thread's appender, created on first use: a convenience for code that cannot keep an appender of
     * its own. Do not close it; prefer {@link #createAppender()} where the code can own one.
     *
     * @throws QueueException when the queue was opened read-only
     */
    ExcerptAppender acquireAppender();

    /**
     * A pretoucher for this queue, to run from your own scheduler (or let {@link MappedQueueBuilder#pretouch(boolean)}
     * run one). It touches up to 4 MiB (at most half a block) ahead of the write position on each run.
     */
    Pretoucher createPretoucher();

    /** A new tailer at the start of the queue. */
    ExcerptTailer createTailer();

    /**
     * A named tailer: it starts where the last tailer of that name stopped, in this or an earlier process, and
     * persists its position each time a read context closes. One live tailer may hold a name at a time. Move it
     * with {@link ExcerptTailer#moveTo(StartPosition)} to start elsewhere the first time.
     *
     * @param name 1 to 64 characters: letters, digits, '.', '_' and '-', starting with a letter or digit;
     *             case-sensitive
     * @throws IllegalArgumentException   when the name is not valid
     * @throws NamedTailerInUseException  when another live tailer, in any process, holds the name
     * @throws QueueException             when the queue is read-only
     */
    ExcerptTailer createTailer(String name);

    /** The positions of all named tailers, with who holds each one now. */
    List<NamedTailerPosition> namedTailers();

    /** The position of one named tailer, or empty when no tailer of that name was ever created. */
    Optional<NamedTailerPosition> namedTailer(String name);

    /**
     * Sets where a named tailer will resume: the index of the next excerpt it reads, or -1 for the start.
     *
     * @throws NamedTailerInUseException when a live tailer holds the name (move that tailer instead)
     */
    void setNamedTailerIndex(String name, long nextIndex);

    /** Index of the first excerpt, or -1 when the queue is empty. Lists the directory. */
    long firstIndex();

    /** Index of the last excerpt published, or -1 when the queue is empty. */
    long lastIndex();

    /**
     * Number of excerpts whose index is at least {@code fromIndex} and below {@code toIndex}, across cycles.
     * Indexes need not exist: the count is of the excerpts that do.
     */
    long countExcerpts(long fromIndex, long toIndex);

    /**
     * Excerpts published through this queue's appenders since it was opened (this process only; discarded and
     * rolled-back excerpts are not counted). Cheap enough to read on every metrics scrape; not a substitute for
     * {@link #lastIndex()} when other processes append too.
     */
    long appendedExcerpts();

    /** Payload bytes of the excerpts counted by {@link #appendedExcerpts()} (headers and padding not included). */
    long appendedBytes();

    /**
     * Bytes of an async queue's buffer that hold excerpts not yet drained into the queue's files, records and padding
     * included; 0 for a queue without async mode, or opened read-only where no buffer exists. Against
     * {@link QueueSettings#asyncBufferSize()}, how close writers are to waiting for the drainer. Cheap: two reads.
     */
    default long asyncBufferedBytes() {
        return 0;
    }

    /** The settings the queue runs with; its roll cycle is the one in force (see {@link QueueSettings}). */
    QueueSettings settings();

    /** The roll cycle in force: the one the queue was created with. */
    default RollCycle rollCycle() {
        return settings().rollCycle();
    }

    /**
     * When the queue's cycles begin: its roll cycle, roll time and zone, the ones it was created with. Names the
     * cycles' files ({@link CycleCalendar#fileName(long)}) and finds the cycle of an instant.
     */
    default CycleCalendar cycleCalendar() {
        return settings().calendar();
    }

    /** The cycle the queue's clock is in now. */
    default long currentCycle() {
        return cycleCalendar().cycleAt(settings().clock().millis());
    }

    /** The queue's directory. */
    default Path path() {
        return settings().directory();
    }

    /** Whether the queue was opened for reading only. */
    default boolean isReadOnly() {
        return settings().readOnly();
    }

    /** When appended excerpts reach storage. */
    default Durability durability() {
        return settings().durability();
    }

    /** Block size used for new cycle files. */
    default long blockSize() {
        return settings().blockSize();
    }

    /** Index spacing used for new cycle files. */
    default int indexSpacing() {
        return settings().indexSpacing();
    }

    /**
     * Free space under the queue against its warning thresholds, read from the file system now. Also checked
     * (and a crossing logged once) whenever a cycle file grows.
     */
    DiskSpace diskSpace();

    /** The file system the queue's directory is on, read when the queue opened. */
    QueueFilesystem filesystem();

    /**
     * What the queue occupies on disk, read from its files now: for monitoring ({@code cq stats}, the Actuator
     * endpoint), not for every scrape of a busy system with thousands of cycles, since it visits every file.
     */
    QueueDiskUsage diskUsage();

    /**
     * Skips what damage made unreadable (docs/operations.md, "Damaged files"): in each cycle file whose records
     * cannot be read to their end, the records are cut at the first damaged one; the excerpts after it are gone, and
     * each skipped range is logged and returned. Only ever on request: readers otherwise stop at damage with a
     * {@link CorruptQueueException}. A cycle file whose own header is damaged is set aside, and a newest cycle whose
     * file is gone is set back to the newest file there is ({@link QueueRepair}). Takes the write lock; stop the
     * queue's readers first (a tailer positioned in a skipped range must be moved), and keep a copy of the directory
     * if the lost excerpts matter. {@link MappedQueueBuilder#repair()} also repairs a queue no writer can open.
     *
     * @throws QueueException when the queue was opened read-only, or while another process has it open for writing
     *                        (a cut where it writes would lose its excerpts)
     */
    QueueRepair repair();

    /** What the queue holds in this process now: open appenders, tailers and files, and mapped bytes. */
    QueueResources resources();

    /** The processes (this one included) that have the queue open for writing now, by process slot. */
    List<WriterProcess> writerProcesses();

    /** The cycles that have a file, oldest first. Lists the directory. */
    List<Long> cycles();

    /** A readable listing of the whole queue: table store, then every cycle file's header and records. */
    default String dump() {
        StringBuilder out = new StringBuilder();
        dump(out);
        return out.toString();
    }

    /** Writes the listing of {@link #dump()} to {@code out}. */
    default void dump(Appendable out) {
        dump(out, ExcerptFormatter.raw());
    }

    /** Writes the listing of {@link #dump()} to {@code out}, each excerpt rendered by {@code formatter}. */
    default void dump(Appendable out, ExcerptFormatter formatter) {
        dumpCycle(-1, out, formatter);
    }

    /**
     * Writes the table store and one cycle's file (every cycle when {@code cycle} is negative) to {@code out}, each
     * excerpt rendered by {@code formatter}.
     *
     * @throws java.io.UncheckedIOException  when {@code out} fails ({@link java.io.IOException} as its cause)
     * @throws CorruptQueueException after writing all it could, naming the first damage it met: a header that is no
     *                               record's, records after a zeroed stretch, a record cut short, a damaged file
     *                               header, an excerpt whose checksum or tag does not match
     * @throws MissingKeyException after writing all it could, when an encrypted excerpt names a key
     *                               id this queue was not given (its record is shown without its contents)
     */
    void dumpCycle(long cycle, Appendable out, ExcerptFormatter formatter);

    /**
     * Reads every cycle file record by record and checks it against the format: record headers and lengths,
     * end-of-cycle marks, file sizes, index entries; with excerpt codecs, every excerpt's checksum, compressed frame
     * and, with the keys, its AES-GCM tag (encrypted excerpts whose key this queue was not given are a note: their
     * tags were not checked). Read-only, and safe while other processes append: the excerpt being written at the
     * end is not reported.
     */
    QueueVerification verify();

    /** Whether {@link #close()} was called. */
    boolean isClosed();

    /** Closes every appender and tailer of this queue, then unmaps its files. Closing twice does nothing. */
    @Override
    void close();
}
