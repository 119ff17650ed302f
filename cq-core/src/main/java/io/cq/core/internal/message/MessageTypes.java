package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * The record types of a queue's positional record messages ({@link MessageLayout#RECORD}): each type's component
 * names, written once in the queue directory's {@value #FILE_NAME} instead of in every excerpt (docs/file-format.md,
 * "Record types"). A type is known by its id, a 64-bit hash of its names ({@link RecordPlan#typeId}), so every
 * process computes the same id for the same type without asking anyone, and an id means the same names in every
 * queue; the file is only needed by readers whose record differs from the writer's and by tools.
 *
 * <p>A writer {@link #define}s its type before it writes the first excerpt that refers to it: appended under an OS
 * lock on the file (other processes) and a JVM-wide monitor (other threads), then forced to the device, so the
 * definition is durable before any such excerpt exists. An entry carries its own CRC-32C: one cut short by a crash
 * (never referred to, since its writer died before forcing it) is ignored by readers and cut off by the next writer.
 *
 * <p>Names are kept JVM-wide by id once any queue's file or writer has shown them ({@link #known}).
 */
final class MessageTypes {
    static final String FILE_NAME = "message-types.cq4m";
    /** "cq.types" read little-endian, then the file's version (int32) and a reserved int32. */
    static final long MAGIC = 0x73657079742e7163L;
    static final int VERSION = 1;
    static final int HEADER_SIZE = 16;
    /** Entry length and CRC-32C of its body, before the body: id (int64), count (u8), count x (u8 length, name). */
    static final int ENTRY_HEADER_SIZE = 8;
    /** Names and their count are one byte each in an entry: types beyond are written with their names. */
    static final int MAX_COUNT = 255;
    static final int MAX_NAME_BYTES = 255;

    /** The queue's table store ({@code TableStoreDescriptor.FILE_NAME}, which the message layer cannot name). */
    private static final String TABLE_STORE = "metadata.cq4t";

    private static final ConcurrentHashMap<Long, byte[][]> KNOWN = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Path, MessageTypes> BY_DIRECTORY = new ConcurrentHashMap<>();
    /** One define at a time in this JVM: two channels of one JVM cannot both hold the file's OS lock. */
    private static final Object DEFINING = new Object();

    private final Path file;
    /** Ids this JVM has made sure this queue's file defines durably: what {@link #define} need not look at again. */
    private final Set<Long> defined = ConcurrentHashMap.newKeySet();

    private MessageTypes(Path directory) {
        this.file = directory.resolve(FILE_NAME);
    }

    /**
     * Where the appender's records' names go: its queue's types; null for an encrypted queue, whose records keep their
     * names inside their encrypted excerpts rather than in a file in the clear, and where there is no queue to tell
     * (a wrapper).
     */
    static MessageTypes of(ExcerptAppender appender) {
        try {
            MappedQueue queue = appender.queue();
            return queue.settings().codecs().encrypted() ? null : of(queue.path());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The types of the tailer's queue; null where it has none to tell. */
    static MessageTypes of(ExcerptTailer tailer) {
        try {
            return of(tailer.queue().path());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The types of the queue in {@code directory}. */
    static MessageTypes of(Path directory) {
        return BY_DIRECTORY.computeIfAbsent(directory.toAbsolutePath().normalize(), MessageTypes::new);
    }

    /**
     * The names of type {@code id} as some queue's file or writer in this JVM has shown them, or null. On a miss the
     * files of every queue this JVM has met are read again (a type defined since): types are few, misses rare.
     */
    static byte[][] known(long id) {
        byte[][] names = KNOWN.get(id);
        if (names == null) {
            for (MessageTypes types : BY_DIRECTORY.values()) {
                try {
                    types.load();
                } catch (RuntimeException e) {
                    // a file that cannot be read says nothing of the type; the caller reports it unknown
                }
            }
            names = KNOWN.get(id);
        }
        return names;
    }

    /**
     * The names of type {@code id}: known, else read from this queue's file (which may have grown); or null, also
     * where the file is no types file. A file that cannot be read is an {@link UncheckedIOException}: the reader
     * reads the excerpt again rather than taking it for undecodable.
     */
    byte[][] names(long id) {
        byte[][] names = KNOWN.get(id);
        if (names == null) {
            try {
                load();
            } catch (IllegalStateException e) {
                return null;
            }
            names = KNOWN.get(id);
        }
        return names;
    }

    /** Reads this queue's file, if there is one, into the names known JVM-wide. */
    void load() {
        try {
            byte[] data = Files.readAllBytes(file);
            entries(data, data.length, null);
        } catch (NoSuchFileException e) {
            // no positional record was ever written to this queue
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the record types of " + file, e);
        }
    }

    /**
     * Makes sure the queue's file defines {@code id} as {@code names}, durably, before the caller writes an excerpt
     * that refers to it.
     *
     * @return false when it cannot: another type with the same id is defined (the caller writes its records with
     *     their names instead), or the file cannot be written
     */
    boolean define(long id, byte[][] names) {
        if (defined.contains(id)) {
            return true;
        }
        if (names.length > MAX_COUNT || Arrays.stream(names).anyMatch(name -> name.length > MAX_NAME_BYTES)) {
            return false;
        }
        synchronized (DEFINING) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                boolean created = channel.size() == 0;
                byte[] data = new byte[(int) Math.min(channel.size(), Integer.MAX_VALUE - 8)];
                channel.read(ByteBuffer.wrap(data), 0);
                Set<Long> inFile = new HashSet<>();
                int valid = created ? 0 : entries(data, data.length, inFile);
                if (valid < 0) {
                    return false; // not a types file: leave it as it is
                }
                byte[][] existing = KNOWN.get(id);
                if (existing != null && !Arrays.deepEquals(existing, names)) {
                    return false;
                }
                if (inFile.contains(id)) {
                    // defined by another writer, which forced it before letting go of the lock unless it died first
                    channel.force(true);
                    defined.add(id);
                } else {
                    ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE + ENTRY_HEADER_SIZE + Long.BYTES + 1
                            + (MAX_NAME_BYTES + 1) * names.length)
                            .order(ByteOrder.LITTLE_ENDIAN);
                    if (valid == 0) {
                        out.putLong(MAGIC).putInt(VERSION).putInt(0);
                    }
                    entry(out, id, names);
                    out.flip();
                    channel.truncate(valid); // an entry cut short by a crash, never referred to
                    channel.write(out, valid);
                    channel.force(true);
                    if (created) {
                        sharePermissions(file);
                        forceDirectory(file.getParent());
                    }
                    KNOWN.putIfAbsent(id, names);
                    defined.add(id);
                }
                return true;
            } catch (IOException | RuntimeException e) {
                return false; // a read-only directory, a full disk...: records are written with their names
            }
        }
    }

    private static void entry(ByteBuffer out, long id, byte[][] names) {
        int start = out.position();
        out.putInt(0).putInt(0);
        int body = out.position();
        out.putLong(id).put((byte) names.length);
        for (byte[] name : names) {
            out.put((byte) name.length).put(name);
        }
        int end = out.position();
        CRC32C crc = new CRC32C();
        crc.update(out.array(), body, end - body);
        out.putInt(start, end - body).putInt(start + Integer.BYTES, (int) crc.getValue());
    }

    /**
     * Reads the entries of a file's bytes into the names known JVM-wide, and their ids into {@code ids} (null: a
     * reader's load, which fails on a file that is no types file).
     *
     * @return the length of the valid part (the header and every whole entry up to the first that is not), 0 for
     *     an empty file, or -1 when the file is not a types file
     */
    private int entries(byte[] data, int length, Set<Long> ids) {
        boolean reading = ids == null;
        if (length == 0) {
            return 0;
        }
        ByteBuffer in = ByteBuffer.wrap(data, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        if (length < HEADER_SIZE || in.getLong(0) != MAGIC) {
            if (reading) {
                throw new IllegalStateException(file + " is not a record types file");
            }
            return -1;
        }
        int at = HEADER_SIZE;
        while (length - at >= ENTRY_HEADER_SIZE) {
            int size = in.getInt(at);
            int crc = in.getInt(at + Integer.BYTES);
            int body = at + ENTRY_HEADER_SIZE;
            if (size < Long.BYTES + 1 || size > length - body) {
                break;
            }
            CRC32C check = new CRC32C();
            check.update(data, body, size);
            if ((int) check.getValue() != crc) {
                break;
            }
            byte[][] names = names(data, body + Long.BYTES, body + size);
            if (names == null) {
                break;
            }
            long id = in.getLong(body);
            KNOWN.putIfAbsent(id, names);
            if (ids != null) {
                ids.add(id);
            }
            at = body + size;
        }
        return at;
    }

    private static byte[][] names(byte[] data, int from, int to) {
        int count = data[from] & 0xFF;
        byte[][] names = new byte[count][];
        int at = from + 1;
        for (int i = 0; i < count; i++) {
            if (at >= to) {
                return null;
            }
            int length = data[at++] & 0xFF;
            if (length > to - at) {
                return null;
            }
            names[i] = Arrays.copyOfRange(data, at, at + length);
            at += length;
        }
        return at == to ? names : null;
    }

    /**
     * The new file gets the table store's permissions, those the queue was given ({@code filePermissions}): the
     * processes that share the queue must all be able to define types. Left as created where they cannot be read.
     */
    private static void sharePermissions(Path file) {
        try {
            Files.setPosixFilePermissions(file, Files.getPosixFilePermissions(file.resolveSibling(TABLE_STORE)));
        } catch (IOException | UnsupportedOperationException e) {
            // no table store or no POSIX permissions: the file keeps what the umask gave it
        }
    }

    /** The new file's name made durable with it: the directory entry is the directory's data. */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // not every filesystem can open a directory; the file's own data was forced
        }
    }

    /** The names as text, for messages. */
    static String describe(byte[][] names) {
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < names.length; i++) {
            text.append(i == 0 ? "" : ", ").append(new String(names[i], StandardCharsets.UTF_8));
        }
        return text.append(')').toString();
    }
}
