package io.cq.core.internal.codec;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 block format: written by {@link Lz4BlockCompressor}, which allocates nothing per excerpt; read by lz4-java's
 * safe, pure-Java decompressor, which touches neither {@code sun.misc.Unsafe} nor a native library, so it needs no
 * JVM flag and prints no warning, and checks every offset and length it is given.
 */
final class Lz4Compressor implements Compressor {
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.safeInstance().safeDecompressor();
    private Lz4BlockCompressor compressor;

    @Override
    public int maxCompressedLength(int length) {
        return Lz4BlockCompressor.maxCompressedLength(length);
    }

    @Override
    public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        if (compressor == null) {
            compressor = new Lz4BlockCompressor();
        }
        return compressor.compress(src, srcOffset, length, dst, dstOffset);
    }

    @Override
    public void decompress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset, int rawLength) {
        int got;
        try {
            got = DECOMPRESSOR.decompress(src, srcOffset, length, dst, dstOffset, rawLength);
        } catch (LZ4Exception | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("malformed LZ4 data: " + e.getMessage(), e);
        }
        if (got != rawLength) {
            throw new IllegalArgumentException("LZ4 data gives " + got + " bytes, the frame says " + rawLength);
        }
    }
}
