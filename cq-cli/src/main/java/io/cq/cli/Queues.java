package io.cq.cli;

import io.cq.core.MappedQueue;
import io.cq.core.message.ExcerptRendering;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens the queue a command names, with errors that say what is wrong with the path. */
final class Queues {
    /** The table store's file name (docs/file-format.md, "Table store"): what makes a directory a queue. */
    static final String TABLE_STORE = "metadata.cq4t";
    static final String CYCLE_FILE_SUFFIX = ".cq4";

    private Queues() {
    }

    static MappedQueue openReadOnly(Path directory) {
        return withRecordTypes(MappedQueue.builder(checkQueueDirectory(directory)).readOnly(true).build());
    }

    /** Read-only, with the keys of {@code --key-store} when one was given (an encrypted queue). */
    static MappedQueue openReadOnly(Path directory, KeyStoreOptions keys) {
        return withRecordTypes(keys.apply(MappedQueue.builder(checkQueueDirectory(directory)).readOnly(true), false)
                .build());
    }

    /** Record messages show with their field names, which the queue keeps apart from them. */
    private static MappedQueue withRecordTypes(MappedQueue queue) {
        ExcerptRendering.useRecordTypesOf(queue.path());
        return queue;
    }

    static Path checkQueueDirectory(Path directory) {
        if (!Files.exists(directory)) {
            throw new UserInputException(directory + " does not exist");
        }
        if (!Files.isDirectory(directory)) {
            throw new UserInputException(directory + " is a file, not a queue directory"
                    + (directory.toString().endsWith(CYCLE_FILE_SUFFIX) ? " (cq dump takes a single cycle file)" : ""));
        }
        if (!Files.isReadable(directory) || !Files.isExecutable(directory)) {
            throw new UserInputException("cannot read " + directory + ": permission denied");
        }
        if (!Files.exists(directory.resolve(TABLE_STORE))) {
            throw new UserInputException(directory + " is not a cq queue: it has no " + TABLE_STORE);
        }
        return directory;
    }

    /** Decimal or 0x-prefixed hexadecimal, as indexes are shown. */
    static long parseIndex(String text) {
        try {
            String trimmed = text.trim();
            return trimmed.startsWith("0x") || trimmed.startsWith("0X")
                    ? Long.parseUnsignedLong(trimmed.substring(2), 16)
                    : Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw new UserInputException("'" + text
                    + "' is not an index: give it in decimal or as 0x followed by hex digits");
        }
    }

    /**
     * Whether nobody reads the output any more (cq tail | head). A PrintWriter keeps a failed write to itself, and
     * picocli's wraps System.out, a PrintStream that keeps it to itself too: both are asked (asking flushes them).
     */
    static boolean outputClosed(PrintWriter out) {
        return out.checkError() || System.out.checkError();
    }

    static String hex(long index) {
        return "0x" + Long.toHexString(index);
    }
}
