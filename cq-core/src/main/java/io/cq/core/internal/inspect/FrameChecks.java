package io.cq.core.internal.inspect;

import io.cq.core.CorruptQueueException;
import io.cq.core.QueueException;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.codec.FileCodecs;
import io.cq.core.internal.codec.FrameReader;
import io.cq.core.internal.file.CycleFile;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens every excerpt of a cycle file with codecs as a tailer would (docs/file-format.md, "Excerpt codecs"), for
 * {@link QueueVerifier}: its CRC-32C, or its AES-GCM tag when the verifier was given the key, and its compressed
 * frame. A mismatch is damage naming the file, the record's position and the excerpt's index. Encrypted excerpts
 * whose key is not at hand are counted, by key id, and reported as not checked: only their structure is.
 */
final class FrameChecks {
    /** Damaged excerpts reported one by one in a file; the rest are counted in one finding. */
    private static final int MOST_FINDINGS = 8;

    /** What is wrong where. */
    record Damage(Path file, long position, String description) {
    }

    /** Encrypted excerpts that could not be checked for want of a key: how many, and the first. */
    private static final class Unchecked {
        long excerpts;
        Path file;
        long position;
    }

    private final String queue;
    private final EncryptionKeys keys;
    private final FrameReader reader;
    /** Key ids asked for once: a key provider is asked once per id, not per excerpt. */
    private final Map<Integer, Boolean> keyAtHand = new HashMap<>();
    private final Map<Integer, Unchecked> unchecked = new LinkedHashMap<>();
    private final List<Damage> damage = new ArrayList<>();
    private int damagedInFile;
    private Path damagedFile;
    private long damagedLeft;

    FrameChecks(String queue, ExcerptCodecs codecs) {
        this.queue = queue;
        this.keys = codecs == null ? null : codecs.keys();
        this.reader = new FrameReader(queue, keys);
    }

    /**
     * Checks the excerpt at {@code index} whose record of {@code length} bytes starts at {@code position} of
     * {@code file}, a file with codecs. The record lies within the file, as the verifier has made sure.
     */
    void check(CycleFile file, long position, int length, long index) {
        FileCodecs codecs = file.codecs();
        MemorySegment chunk;
        try {
            chunk = file.mapped().readableChunkAt(position, ExcerptHeaderDescriptor.SIZE + length);
        } catch (QueueException e) {
            return; // cut meanwhile by a last writer closing; the record walk reports a file cut short
        }
        long at = position - file.mapped().chunkStart(file.mapped().chunkIndex(position))
                + ExcerptHeaderDescriptor.SIZE;
        if (codecs.encrypted() && length >= CodecDescriptor.ENCRYPTION_OVERHEAD) {
            int keyId = FrameReader.keyIdAt(chunk, at);
            if (!keyAtHand.computeIfAbsent(keyId, id -> keys != null && keys.key(id) != null)) {
                Unchecked count = unchecked.computeIfAbsent(keyId, id -> new Unchecked());
                if (count.excerpts++ == 0) {
                    count.file = file.path();
                    count.position = position;
                }
                return;
            }
        }
        try {
            reader.open(codecs, chunk, at, length, index, file.path(), position);
        } catch (CorruptQueueException e) {
            if (!file.path().equals(damagedFile)) {
                flushLeft();
                damagedFile = file.path();
                damagedInFile = 0;
            }
            if (damagedInFile++ < MOST_FINDINGS) {
                damage.add(new Damage(e.file(), e.position(), e.problem()));
            } else {
                damagedLeft++;
            }
        }
    }

    private void flushLeft() {
        if (damagedLeft > 0) {
            Damage last = damage.getLast();
            damage.add(new Damage(last.file(), last.position(), "and " + damagedLeft + " more excerpts of the file "
                    + "after it whose checksum, tag or compressed frame does not match"));
            damagedLeft = 0;
        }
    }

    /** The damage found since the last call, in the order found. */
    List<Damage> takeDamage() {
        flushLeft();
        List<Damage> taken = List.copyOf(damage);
        damage.clear();
        return taken;
    }

    /**
     * One line per key id whose excerpts were not checked: without keys, that the tags were not checked at all;
     * with keys that lack an id, which id and how many excerpts.
     */
    List<Damage> notChecked(Path directory) {
        List<Damage> notes = new ArrayList<>();
        if (keys == null && !unchecked.isEmpty()) {
            long excerpts = unchecked.values().stream().mapToLong(count -> count.excerpts).sum();
            notes.add(new Damage(directory, -1, "the queue is encrypted and no keys were given: the "
                    + "authentication tags of its " + excerpts + " encrypted excerpts were not checked, only the "
                    + "structure (key ids " + ids() + "); give the keys to check them"));
            return notes;
        }
        unchecked.forEach((keyId, count) -> notes.add(new Damage(count.file, count.position, count.excerpts
                + " excerpts, the first here, are encrypted with key id " + hex(keyId) + ", which the keys given lack ("
                + keys.describe() + "): their tags were not checked; a key left out, or their key id bytes were "
                + "changed")));
        return notes;
    }

    private String ids() {
        StringBuilder ids = new StringBuilder();
        unchecked.keySet().forEach(id -> ids.append(ids.isEmpty() ? "" : ", ").append(hex(id)));
        return ids.toString();
    }

    private static String hex(int id) {
        return String.format("0x%08x", id);
    }
}
