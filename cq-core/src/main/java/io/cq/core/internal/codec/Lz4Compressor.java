package io.cq.core.internal.codec;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 block format through lz4-java's safe, pure-Java instance: it touches neither {@code sun.misc.Unsafe} nor a
 * native library, so it needs no JVM flag and prints no warning, and reads the same bytes the native one writes.
 */
final class Lz4Compressor implements Compressor {
    private static final LZ4Factory FACTORY = LZ4Factory.safeInstance();
    private final LZ4Compressor compressor = FACTORY.fastCompressor();
    private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

    @Override
    public int maxCompressedLength(int length) {
        return compressor.maxCompressedLength(length);
    }

    @Override
    public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        return compressor.compress(src, srcOffset, length, dst, dstOffset, dst.length - dstOffset);
    }

    @Override
    public void decompress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset, int rawLength) {
        int got;
        try {
            got = decompressor.decompress(src, srcOffset, length, dst, dstOffset, rawLength);
        } catch (LZ4Exception | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("malformed LZ4 data: " + e.getMessage(), e);
        }
        if (got != rawLength) {
            throw new IllegalArgumentException("LZ4 data gives " + got + " bytes, the frame says " + rawLength);
        }
    }
}
