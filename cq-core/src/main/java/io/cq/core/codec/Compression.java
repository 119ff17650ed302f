package io.cq.core.codec;

/**
 * How a queue compresses its excerpts (docs/codecs.md). Each excerpt of at least the queue's threshold is compressed
 * on its own and stored compressed only when that makes it smaller; every reader decompresses without being told,
 * from the method each excerpt names.
 */
public enum Compression {
    /** Excerpts are stored as written. */
    NONE(0),
    /**
     * LZ4 block format, pure Java (lz4-java's safe instance: no native library, no JVM flag): fast both ways, about
     * half the size of typical JSON-like text.
     */
    LZ4(1),
    /** Deflate (the JDK's zlib, level 6, raw): smaller than LZ4, several times slower to write. */
    DEFLATE(2);

    private final int id;

    Compression(int id) {
        this.id = id;
    }

    /** The number that names the method in the files (docs/file-format.md, "Excerpt codecs"). */
    public int id() {
        return id;
    }

    /** The method a file names, or null for a number no version of cq writes. */
    public static Compression ofId(int id) {
        for (Compression c : values()) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }
}
