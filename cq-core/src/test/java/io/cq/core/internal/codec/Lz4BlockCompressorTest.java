package io.cq.core.internal.codec;

import io.cq.core.support.AllocatedBytes;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Lz4BlockCompressorTest {
    private static final LZ4SafeDecompressor READER = LZ4Factory.safeInstance().safeDecompressor();

    private static byte[] sample(Random random, int kind, int size) {
        byte[] bytes = new byte[size];
        switch (kind) {
            case 0 -> random.nextBytes(bytes);
            case 1 -> Arrays.fill(bytes, (byte) random.nextInt());
            case 2 -> {
                StringBuilder json = new StringBuilder();
                while (json.length() < size) {
                    json.append("{\"id\":").append(random.nextInt(1_000_000)).append(",\"symbol\":\"")
                            .append(random.nextBoolean() ? "EURUSD" : "GBPJPY").append("\",\"qty\":")
                            .append(random.nextInt(10_000)).append('}');
                }
                System.arraycopy(json.toString().getBytes(StandardCharsets.US_ASCII), 0, bytes, 0, size);
            }
            default -> {
                for (int i = 0; i < size; i++) {
                    bytes[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : 'a' + i % 7);
                }
            }
        }
        return bytes;
    }

    @Test
    void shouldWriteEveryBlockSoThatLz4JavaReadsItBackWhole() {
        Lz4BlockCompressor compressor = new Lz4BlockCompressor();
        Random random = new Random(20261207);
        int[] sizes = {0, 1, 4, 11, 12, 13, 16, 40, 96, 255, 256, 1024, 4096, 65_535, 65_536, 70_000, 300_000};
        for (int round = 0; round < 3; round++) {
            for (int size : sizes) {
                for (int kind = 0; kind < 4; kind++) {
                    byte[] input = sample(random, kind, size);
                    int offset = random.nextInt(8);
                    byte[] src = new byte[offset + size + 3];
                    System.arraycopy(input, 0, src, offset, size);
                    byte[] compressed = new byte[5 + Lz4BlockCompressor.maxCompressedLength(size)];
                    int length = compressor.compress(src, offset, size, compressed, 5);
                    assertThat(length).isLessThanOrEqualTo(Lz4BlockCompressor.maxCompressedLength(size));
                    byte[] back = new byte[size];
                    int got = READER.decompress(compressed, 5, length, back, 0, size);
                    assertThat(got).as("size %d kind %d", size, kind).isEqualTo(size);
                    assertThat(back).as("size %d kind %d", size, kind).isEqualTo(input);
                }
            }
        }
    }

    @Test
    void shouldCompressJsonLikeTextAtLeastAsWellAsLz4JavasFastCompressor() {
        Random random = new Random(5);
        Lz4BlockCompressor ours = new Lz4BlockCompressor();
        var theirs = LZ4Factory.safeInstance().fastCompressor();
        long oursTotal = 0;
        long theirsTotal = 0;
        for (int i = 0; i < 200; i++) {
            byte[] input = sample(random, 2, 1024);
            byte[] out = new byte[Lz4BlockCompressor.maxCompressedLength(1024)];
            oursTotal += ours.compress(input, 0, input.length, out, 0);
            theirsTotal += theirs.compress(input, 0, input.length, out, 0, out.length);
        }
        assertThat(oursTotal).as("ours %d bytes, lz4-java %d", oursTotal, theirsTotal)
                .isLessThanOrEqualTo(theirsTotal);
        assertThat(oursTotal).isLessThan(200 * 1024 / 2);
    }

    @Test
    void shouldAllocateNothingPerBlock() {
        Lz4BlockCompressor compressor = new Lz4BlockCompressor();
        byte[] input = sample(new Random(1), 2, 1024);
        byte[] out = new byte[Lz4BlockCompressor.maxCompressedLength(1024)];
        for (int i = 0; i < 50_000; i++) {
            compressor.compress(input, 0, input.length, out, 0);
        }
        long before = AllocatedBytes.now();
        for (int i = 0; i < 100_000; i++) {
            compressor.compress(input, 0, input.length, out, 0);
        }
        long allocated = AllocatedBytes.since(before);
        assertThat(allocated / 100_000.0).as("bytes per block (%d in all)", allocated).isLessThan(1.0);
    }
}
