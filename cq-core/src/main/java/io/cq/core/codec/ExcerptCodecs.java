package io.cq.core.codec;

import java.util.Objects;

/**
 * What a queue does to each excerpt between its appenders and its files (docs/codecs.md): a CRC-32C checksum,
 * compression, AES-GCM encryption, in any combination, applied in that order when reading and the reverse when
 * writing (compress, then encrypt; the encryption's tag is then the checksum). Chosen when a queue is created and
 * recorded in its files, so every reader in any process decodes without being told; only keys must be given.
 * Immutable.
 *
 * <pre>{@code
 * MappedQueue.builder(dir)
 *     .codecs(ExcerptCodecs.none().withChecksums().withCompression(Compression.LZ4, 256))
 *     .build();
 * }</pre>
 */
public final class ExcerptCodecs {
    /** Excerpts shorter than this are not worth compressing: the method byte and length cost more than they save. */
    public static final int DEFAULT_COMPRESSION_THRESHOLD = 128;
    /** Without {@link Compression}: a plain queue's opening loads no class it does not need (StartupClassesTest). */
    private static final ExcerptCodecs NONE = new ExcerptCodecs(false, null, 0, false, null);

    private final boolean checksums;
    /** Null for {@link Compression#NONE}. */
    private final Compression compression;
    private final int compressionThreshold;
    private final boolean encrypted;
    /** Null when not encrypted, or encrypted and opened without keys. */
    private final EncryptionKeys keys;

    private ExcerptCodecs(boolean checksums, Compression compression, int compressionThreshold, boolean encrypted,
                          EncryptionKeys keys) {
        this.checksums = checksums;
        this.compression = compression == null || compression == Compression.NONE ? null : compression;
        this.compressionThreshold = compressionThreshold;
        this.encrypted = encrypted;
        this.keys = encrypted ? keys : null;
    }

    /** A plain queue: excerpts stored as written, byte for byte. */
    public static ExcerptCodecs none() {
        return NONE;
    }

    /**
     * The codecs recorded in a queue's files, for the engine (no keys).
     *
     * @throws IllegalArgumentException for a threshold out of range
     */
    public static ExcerptCodecs of(boolean checksums, Compression compression, int compressionThreshold,
                                   boolean encrypted, EncryptionKeys keys) {
        Objects.requireNonNull(compression, "compression");
        return new ExcerptCodecs(checksums, compression,
                compression == Compression.NONE ? 0 : requireThreshold(compressionThreshold), encrypted, keys);
    }

    /** A CRC-32C of each excerpt, written with it and checked on every read and by {@code cq verify}. */
    public ExcerptCodecs withChecksums() {
        return new ExcerptCodecs(true, compression, compressionThreshold, encrypted, keys);
    }

    /** Compression of each excerpt of at least {@link #DEFAULT_COMPRESSION_THRESHOLD} bytes. */
    public ExcerptCodecs withCompression(Compression method) {
        return withCompression(method, DEFAULT_COMPRESSION_THRESHOLD);
    }

    /**
     * Compression of each excerpt of at least {@code thresholdBytes}; one that does not get smaller is stored as
     * written.
     *
     * @throws IllegalArgumentException when the threshold is below 1 or above 16 MiB
     */
    public ExcerptCodecs withCompression(Compression method, int thresholdBytes) {
        Objects.requireNonNull(method, "method");
        return new ExcerptCodecs(checksums, method, method == Compression.NONE ? 0 : requireThreshold(thresholdBytes),
                encrypted, keys);
    }

    /**
     * AES-GCM encryption of each excerpt with the keys' current key (its tag authenticates the excerpt, so a
     * separate checksum adds nothing). {@code keys} may be null only where the engine records that a queue is
     * encrypted without knowing its keys.
     */
    public ExcerptCodecs withEncryption(EncryptionKeys keys) {
        return new ExcerptCodecs(checksums, compression, compressionThreshold, true, keys);
    }

    private static int requireThreshold(int threshold) {
        if (threshold < 1 || threshold > 16 << 20) {
            throw new IllegalArgumentException("compression threshold must be 1 byte to 16 MiB, was " + threshold);
        }
        return threshold;
    }

    public boolean checksums() {
        return checksums;
    }

    public Compression compression() {
        return compression == null ? Compression.NONE : compression;
    }

    /** Excerpts shorter than this are stored uncompressed; 0 without compression. */
    public int compressionThreshold() {
        return compressionThreshold;
    }

    public boolean encrypted() {
        return encrypted;
    }

    /** The keys, or null: not encrypted, or encrypted and opened without keys. */
    public EncryptionKeys keys() {
        return keys;
    }

    /** Whether excerpts are stored as written, as in a queue without codecs. */
    public boolean isPlain() {
        return !checksums && compression == null && !encrypted;
    }

    /** The same codecs with other keys: what a reader that was given keys opens a recorded queue with. */
    public ExcerptCodecs withKeys(EncryptionKeys given) {
        return encrypted ? new ExcerptCodecs(checksums, compression, compressionThreshold, true, given) : this;
    }

    /** Whether both store excerpts alike: same checksums, compression, threshold and encryption, keys aside. */
    public boolean sameFormatAs(ExcerptCodecs other) {
        return checksums == other.checksums && compression == other.compression
                && compressionThreshold == other.compressionThreshold && encrypted() == other.encrypted();
    }

    /** For the queues endpoint, {@code cq stats} and errors: which codecs are on, never a key. */
    public String describe() {
        if (isPlain()) {
            return "none";
        }
        StringBuilder shown = new StringBuilder();
        if (encrypted()) {
            shown.append("AES-GCM encryption");
            EncryptionKeys k = keys();
            shown.append(k == null ? " (no keys given)" : " (current key id " + KeyRing.hex(k.currentKeyId()) + ")");
        }
        if (checksums) {
            shown.append(shown.isEmpty() ? "" : ", ").append(encrypted() ? "CRC-32C checksums (the GCM tag checks)"
                    : "CRC-32C checksums");
        }
        if (compression != null) {
            shown.append(shown.isEmpty() ? "" : ", ").append(compression).append(" compression from ")
                    .append(compressionThreshold).append(" bytes");
        }
        return shown.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExcerptCodecs other && sameFormatAs(other) && Objects.equals(keys, other.keys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(checksums, compression, compressionThreshold, encrypted, keys);
    }

    @Override
    public String toString() {
        return describe();
    }
}
