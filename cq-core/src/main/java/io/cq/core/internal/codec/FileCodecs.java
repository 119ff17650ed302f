package io.cq.core.internal.codec;

import io.cq.core.CorruptQueueException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.internal.layout.CodecDescriptor;
import io.cq.core.internal.layout.CycleHeaderDescriptor;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The codecs a cycle file's excerpts are framed with, as its header records them (docs/file-format.md, "Excerpt
 * codecs"): what every reader decodes the file's excerpts with, whatever the queue's settings say.
 *
 * @param flags     {@link CodecDescriptor#FLAG_CHECKSUMS}, {@link CodecDescriptor#FLAG_ENCRYPTED}
 * @param salt      the file's key salt (encrypted files), else null; never changed once read
 */
public record FileCodecs(int flags, Compression compression, int threshold, byte[] salt) {
    public boolean encrypted() {
        return (flags & CodecDescriptor.FLAG_ENCRYPTED) != 0;
    }

    /** A CRC-32C follows each frame: checksums on, and no encryption (whose tag checks instead). */
    public boolean checksummed() {
        return (flags & CodecDescriptor.FLAG_CHECKSUMS) != 0 && !encrypted();
    }

    public boolean compressing() {
        return compression != Compression.NONE;
    }

    /** What the frame adds to an excerpt at most. */
    public int overhead() {
        return CodecDescriptor.overhead(flags, compressing());
    }

    /** The public description, without keys. */
    public ExcerptCodecs codecs() {
        return ExcerptCodecs.of((flags & CodecDescriptor.FLAG_CHECKSUMS) != 0, compression, threshold, encrypted(),
                null);
    }

    public static int flagsOf(ExcerptCodecs codecs) {
        return (codecs.checksums() ? CodecDescriptor.FLAG_CHECKSUMS : 0)
                | (codecs.encrypted() ? CodecDescriptor.FLAG_ENCRYPTED : 0);
    }

    /** The codecs of new files of a queue with {@code codecs}, or null for a plain queue (its files stay version 1). */
    public static FileCodecs forNewFiles(ExcerptCodecs codecs) {
        return codecs.isPlain() ? null : new FileCodecs(flagsOf(codecs), codecs.compression(),
                codecs.compressionThreshold(), null);
    }

    /**
     * Writes these codecs into a new file's header, with a fresh random key salt when encrypted, and the version
     * that makes older cq refuse the file rather than hand out its frames as excerpts.
     */
    public void writeInto(ByteBuffer header) {
        header.putInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET, CodecDescriptor.CYCLE_FILE_VERSION);
        header.putInt((int) CodecDescriptor.FILE_FLAGS_OFFSET, flags);
        header.putInt((int) CodecDescriptor.FILE_COMPRESSION_OFFSET, compression.id());
        header.putInt((int) CodecDescriptor.FILE_THRESHOLD_OFFSET, threshold);
        if (encrypted()) {
            byte[] fresh = new byte[CodecDescriptor.KEY_SALT_LENGTH];
            Salts.RANDOM.nextBytes(fresh);
            header.put((int) CodecDescriptor.FILE_KEY_SALT_OFFSET, fresh);
        }
    }

    /**
     * The codecs a cycle file's header records: null for a version 1 file (plain).
     *
     * @throws CorruptQueueException naming the file and field when a version 2 header's codecs are not valid
     */
    public static FileCodecs read(Path path, ByteBuffer header) {
        if (header.getInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET) != CodecDescriptor.CYCLE_FILE_VERSION) {
            return null;
        }
        int flags = header.getInt((int) CodecDescriptor.FILE_FLAGS_OFFSET);
        if ((flags & ~CodecDescriptor.KNOWN_FLAGS) != 0) {
            throw new CorruptQueueException(path, CodecDescriptor.FILE_FLAGS_OFFSET, String.format("codec flags "
                    + "0x%x name codecs this cq does not know (it knows checksums 0x1 and encryption 0x2)", flags));
        }
        int method = header.getInt((int) CodecDescriptor.FILE_COMPRESSION_OFFSET);
        Compression compression = Compression.ofId(method);
        if (compression == null) {
            throw new CorruptQueueException(path, CodecDescriptor.FILE_COMPRESSION_OFFSET, "compression method "
                    + method + " is unknown (0 none, 1 LZ4, 2 Deflate)");
        }
        if (flags == 0 && compression == Compression.NONE) {
            // Only a queue with codecs writes version 2 files: codecs zeroed out are damage, not a plain file.
            throw new CorruptQueueException(path, CodecDescriptor.FILE_FLAGS_OFFSET, "a version 2 cycle file records "
                    + "no codecs: its header is damaged");
        }
        int threshold = header.getInt((int) CodecDescriptor.FILE_THRESHOLD_OFFSET);
        if (compression != Compression.NONE ? threshold < 1 || threshold > 16 << 20 : threshold != 0) {
            throw new CorruptQueueException(path, CodecDescriptor.FILE_THRESHOLD_OFFSET, "compression threshold "
                    + threshold + " is out of range for compression " + compression);
        }
        byte[] salt = null;
        if ((flags & CodecDescriptor.FLAG_ENCRYPTED) != 0) {
            salt = new byte[CodecDescriptor.KEY_SALT_LENGTH];
            header.get((int) CodecDescriptor.FILE_KEY_SALT_OFFSET, salt);
        }
        return new FileCodecs(flags, compression, threshold, salt);
    }

    /** For messages: which codecs, or "with no codecs" for null. */
    public static String describe(FileCodecs codecs) {
        return codecs == null ? "with no codecs" : "with " + codecs.codecs().describe();
    }

    /** Whether a file framed so can take the excerpts of a queue whose new files get {@code queue}'s codecs. */
    public boolean sameFormatAs(FileCodecs queue) {
        return queue != null && flags == queue.flags && compression == queue.compression
                && threshold == queue.threshold;
    }

    /** Loaded by the first encrypted file made: seeding a SecureRandom costs milliseconds. */
    private static final class Salts {
        static final SecureRandom RANDOM = new SecureRandom();
    }
}
