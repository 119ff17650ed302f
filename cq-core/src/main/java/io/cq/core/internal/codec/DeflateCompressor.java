package io.cq.core.internal.codec;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Raw Deflate (no zlib or GZIP wrapper: the frame has its own length and, when on, its own checksum) through the
 * JDK's zlib, at its default level. The deflater and inflater are reset for each excerpt and freed with their owner.
 */
final class DeflateCompressor implements Compressor {
    private Deflater deflater;
    private Inflater inflater;

    @Override
    public int maxCompressedLength(int length) {
        // zlib's deflateBound for raw streams, plus room for the final empty block.
        return length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + 8;
    }

    @Override
    public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        if (deflater == null) {
            deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        }
        Deflater d = deflater;
        d.reset();
        d.setInput(src, srcOffset, length);
        d.finish();
        int written = d.deflate(dst, dstOffset, dst.length - dstOffset);
        if (!d.finished()) {
            throw new IllegalStateException("deflate output exceeded its bound of " + (dst.length - dstOffset));
        }
        return written;
    }

    @Override
    public void decompress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset, int rawLength) {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        Inflater i = inflater;
        i.reset();
        i.setInput(src, srcOffset, length);
        try {
            // One byte of room more than the frame says: data that gives more is damage, not a cut-off excerpt.
            int got = i.inflate(dst, dstOffset, Math.min(rawLength + 1, dst.length - dstOffset));
            if (got != rawLength || !i.finished()) {
                throw new IllegalArgumentException("Deflate data gives " + (i.finished() ? got + " bytes" : "more "
                        + "than " + rawLength + " bytes or ends early") + ", the frame says " + rawLength);
            }
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("malformed Deflate data: " + e.getMessage(), e);
        }
    }
}
