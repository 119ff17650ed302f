package io.cq.core.internal.layout;

/**
 * Where a queue with excerpt codecs records them, and how such an excerpt's bytes are framed (docs/file-format.md,
 * "Excerpt codecs"). A queue without codecs has none of this: its table store stays version 2 and its cycle files
 * version 1, byte for byte.
 *
 * <pre>
 * table store (version 3)            cycle file (version 2)
 *   72 codec flags      4              80 codec flags          4
 *   76 compression      4              84 compression          4
 *   80 threshold        4              88 threshold            4
 *  144 nonce serial     8              96 key salt            16   (encrypted files only)
 *      (on the write lock's line)
 *
 * record payload:
 *   encrypted:            keyId u32 | nonce 12 (session u32, serial u64) | ciphertext of F | tag 16
 *   checksums only:       F | CRC-32C of (excerpt index u64, F), u32
 *   neither:              F
 *   F with compression:   method u8 | rawLength u32 (method != 0) | data
 *   F without:            the excerpt's bytes
 * </pre>
 */
public final class CodecDescriptor {
    public static final int FLAG_CHECKSUMS = 1;
    public static final int FLAG_ENCRYPTED = 2;
    public static final int KNOWN_FLAGS = FLAG_CHECKSUMS | FLAG_ENCRYPTED;

    /** The table store's version when the queue has codecs; older cq refuses it rather than read ciphertext. */
    public static final int TABLE_STORE_VERSION = 3;
    public static final long TABLE_FLAGS_OFFSET = 72;
    public static final long TABLE_COMPRESSION_OFFSET = 76;
    public static final long TABLE_THRESHOLD_OFFSET = 80;
    /** Serial of the next encryption nonce: taken and advanced under the write lock, on its cache line. */
    public static final long TABLE_NONCE_SERIAL_OFFSET = 144;

    /** A cycle file's version when its excerpts are framed; older cq refuses it. */
    public static final int CYCLE_FILE_VERSION = 2;
    public static final long FILE_FLAGS_OFFSET = 80;
    public static final long FILE_COMPRESSION_OFFSET = 84;
    public static final long FILE_THRESHOLD_OFFSET = 88;
    public static final long FILE_KEY_SALT_OFFSET = 96;
    public static final int KEY_SALT_LENGTH = 16;
    /** End of the codec fields in a cycle file header: reserved bytes from here to 128 stay zero. */
    public static final long FILE_CODECS_END = FILE_KEY_SALT_OFFSET + KEY_SALT_LENGTH;

    public static final int CHECKSUM_LENGTH = 4;
    public static final int KEY_ID_LENGTH = 4;
    public static final int NONCE_LENGTH = 12;
    public static final int TAG_LENGTH = 16;
    /** Key id, nonce and tag around an encrypted excerpt's ciphertext. */
    public static final int ENCRYPTION_OVERHEAD = KEY_ID_LENGTH + NONCE_LENGTH + TAG_LENGTH;
    public static final int METHOD_LENGTH = 1;
    public static final int RAW_LENGTH_LENGTH = 4;
    /** Method byte of an excerpt stored uncompressed in a compressing queue. */
    public static final int STORED = 0;

    private CodecDescriptor() {
    }

    /** Bytes a frame adds to the largest excerpt: what the user may write is the file's largest minus this. */
    public static int overhead(int flags, boolean compressing) {
        int frame = compressing ? METHOD_LENGTH : 0;
        if ((flags & FLAG_ENCRYPTED) != 0) {
            return frame + ENCRYPTION_OVERHEAD;
        }
        return frame + ((flags & FLAG_CHECKSUMS) != 0 ? CHECKSUM_LENGTH : 0);
    }
}
