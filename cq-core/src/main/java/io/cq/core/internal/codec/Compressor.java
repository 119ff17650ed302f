package io.cq.core.internal.codec;

/** One compression method, both ways, on arrays. An instance per appender or tailer: not thread-safe. */
interface Compressor {
    /** The most bytes {@link #compress} may write for {@code length} bytes. */
    int maxCompressedLength(int length);

    /** @return the compressed length, written from {@code dst[dstOffset]} */
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset);

    /**
     * Decompresses exactly {@code rawLength} bytes.
     *
     * @throws IllegalArgumentException when the input is malformed or does not give {@code rawLength} bytes
     */
    void decompress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset, int rawLength);
}
