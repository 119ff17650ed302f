package io.cq.core.internal.table;

import io.cq.core.CorruptQueueException;
import io.cq.core.CycleCalendar;
import io.cq.core.QueueException;
import io.cq.core.RollCycle;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.system.Failures;
import io.cq.core.internal.system.FilePermissions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * The table stores this JVM has open, one per file, shared by every queue opened on the directory: POSIX record locks
 * belong to a process and are all dropped when any descriptor of the file is closed, so the JVM keeps one channel
 * open until the last queue on the file closes. Thread-safe: everything under {@link #OPEN}, the counts of each
 * {@link TableStore} included.
 */
public final class TableStores {
    private static final Map<Object, TableStore> OPEN = new HashMap<>();

    private TableStores() {
    }

    /**
     * Opens (creating it when the queue is writable and has none) the table store of a queue directory, shared
     * with any other queue of this JVM on the same directory.
     */
    public static TableStore open(Path directory, boolean readOnly, RollCycle rollCycle, long nowMillis,
                                  FilePermissions permissions) {
        return open(directory, readOnly, CycleCalendar.of(rollCycle), AsyncBufferConfig.NONE, ExcerptCodecs.none(),
                nowMillis, permissions);
    }

    /**
     * Opens (creating when writable and absent) the table store of a queue. A writer claims its process slot here;
     * clearing a write-lock token a dead process left is the lock package's, after this.
     *
     * @param calendar what a new table store is created with; an existing one keeps its own
     *                 ({@link TableStore#calendar()})
     * @param async    the async buffer a new table store is created with; an existing one keeps its own
     *                 ({@link TableStore#asyncBuffer()})
     * @param codecs   the excerpt codecs a new table store is created with; an existing one keeps its own
     *                 ({@link TableStore#codecs()})
     */
    public static TableStore open(Path directory, boolean readOnly, CycleCalendar calendar, AsyncBufferConfig async,
                                  ExcerptCodecs codecs, long nowMillis, FilePermissions permissions) {
        Path file = directory.resolve(TableStoreDescriptor.FILE_NAME).toAbsolutePath().normalize();
        synchronized (OPEN) {
            try {
                if (!readOnly && !Files.exists(file)) {
                    TableStoreHeaders.create(file, calendar, async, codecs, nowMillis, permissions);
                }
                // Keyed by the file itself (device and inode), so a second path to it (a link, a bind mount)
                // shares the channel instead of opening one whose close would drop this JVM's locks.
                Object key = identity(file);
                TableStore open = OPEN.get(key);
                if (open != null && (open.writable() || readOnly)) {
                    open.references++;
                    open.writers += readOnly ? 0 : 1;
                    return open;
                }
                if (open != null) {
                    throw new QueueException("queue " + directory + " is open read-only in this JVM; close it before "
                            + "opening it for writing");
                }
                TableStore store = openFile(file, readOnly, key);
                store.references = 1;
                store.writers = readOnly ? 0 : 1;
                OPEN.put(key, store);
                return store;
            } catch (NoSuchFileException e) {
                throw new QueueException("queue " + directory + " has no table store " + TableStoreDescriptor.FILE_NAME
                        + (readOnly ? "; a read-only queue must already exist" : ""), e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the table store " + file + ": " + Failures.describe(e), e);
            }
        }
    }

    private static TableStore openFile(Path file, boolean readOnly, Object key) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new CorruptQueueException(file, 0, "expected the queue's table store, a regular file, "
                    + "found a FIFO, device or directory under that name; refusing to open it");
        }
        FileChannel channel = readOnly
                ? FileChannel.open(file, StandardOpenOption.READ)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        TableStore store;
        try {
            store = new TableStore(file, channel, !readOnly, key);
        } catch (RuntimeException | IOException e) {
            channel.close();
            throw e;
        }
        if (!readOnly) {
            try {
                store.processSlots().claim();
            } catch (RuntimeException | IOException e) {
                store.close();
                throw e;
            }
        }
        return store;
    }

    /** Gives up a queue's share; the JVM's last share unmaps the file and drops its locks. */
    static void release(TableStore store, boolean writer) {
        // All under OPEN: a new open of the same file must not get a channel while this one is being closed,
        // since closing it drops every record lock this process holds on the file.
        synchronized (OPEN) {
            if (OPEN.get(store.key()) != store) {
                return;
            }
            store.writers -= writer ? 1 : 0;
            if (--store.references > 0) {
                return;
            }
            OPEN.remove(store.key());
            store.close();
        }
    }

    /** How many queues of this JVM have the table store open for writing. */
    static int writersInThisJvm(TableStore store) {
        synchronized (OPEN) {
            return store.writers;
        }
    }

    /** A file's identity: its device and inode where the file system has them, else its real path. */
    static Object identity(Path file) throws IOException {
        Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        return key != null ? key : file.toRealPath();
    }
}
