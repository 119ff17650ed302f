package io.cq.benchmarks;

import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;

import java.util.List;
import javax.crypto.spec.SecretKeySpec;

/**
 * The excerpt codecs the benchmarks run cq with (docs/codecs.md), by the implementation name {@link QueueDriver#open}
 * takes: a name stands for the same codecs and the same key in every process, so a second JVM that opens a queue by
 * the name reads and writes what the first one does.
 */
public final class CodecVariants {
    /** The cq variants with codecs, in the order the report lists them. */
    public static final List<String> NAMES = List.of("cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4");

    /**
     * Excerpts from this size on are compressed: below the 96-byte and 1 KiB excerpts of the benchmarks, so that
     * both are tried (a 40-byte one is not, as with the engine's default of 128 bytes).
     */
    public static final int COMPRESSION_THRESHOLD = 64;

    /** A fixed 256-bit AES test key (bytes 0 to 31): a benchmark's data is no secret. */
    private static final EncryptionKeys KEYS = EncryptionKeys.of(new SecretKeySpec(testKey(), "AES"));

    private CodecVariants() {
    }

    /** The codecs of a variant name of {@link #NAMES}. */
    public static ExcerptCodecs codecs(String name) {
        return switch (name) {
            case "cq-crc" -> ExcerptCodecs.none().withChecksums();
            case "cq-lz4" -> ExcerptCodecs.none().withCompression(Compression.LZ4, COMPRESSION_THRESHOLD);
            case "cq-deflate" -> ExcerptCodecs.none().withCompression(Compression.DEFLATE, COMPRESSION_THRESHOLD);
            case "cq-aes" -> ExcerptCodecs.none().withEncryption(KEYS);
            case "cq-aes-lz4" -> ExcerptCodecs.none().withCompression(Compression.LZ4, COMPRESSION_THRESHOLD)
                    .withEncryption(KEYS);
            default -> throw new IllegalArgumentException("no codec variant " + name + "; one of " + NAMES);
        };
    }

    private static byte[] testKey() {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) i;
        }
        return key;
    }
}
