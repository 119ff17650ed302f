package io.cq.core.internal.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * GHASH (NIST SP 800-38D) in constant time: no branch and no memory access depends on the key or the data, unlike
 * the tables of most software GHASH, whose timing code sharing the CPU's caches can read. Products in GF(2^128) are
 * Karatsuba's three carry-less products of 64-bit halves, each made of integer multiplications ({@link #clmul}).
 *
 * <p>GCM numbers a block's bits from the first byte's top bit, so a block's halves, read big-endian, are its two
 * 64-term halves with their bits reversed; reversed again they are ordinary polynomials. A carry-less product's low
 * half is {@link #clmul} of the ordinary halves, its high half the low half of the product of the reversed ones,
 * reversed: that is why each operand of H is kept both ways.
 *
 * <p>A short message (an 8-byte associated datum and up to {@value #POWERS} blocks in all) is hashed as the sum of
 * its blocks times the powers of H, reduced once: the products do not wait for each other, and the length block's
 * product, the same for every excerpt of a length, is remembered. Longer ones go block by block (Horner's rule).
 * One per {@link AesGcm}: not thread-safe.
 */
final class Ghash {
    /** The powers of H kept: enough for the associated datum, 160 bytes of excerpt and the length block. */
    static final int POWERS = 12;

    private static final int BLOCK = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final long M0 = 0x1111111111111111L;
    private static final long M1 = 0x2222222222222222L;
    private static final long M2 = 0x4444444444444444L;
    private static final long M3 = 0x8888888888888888L;

    /**
     * Per power k of H (from 1), six operands: its halves as ordinary polynomials, their sum, and the same three as
     * GCM orders the bits; at {@code (k - 1) * 6}.
     */
    private final Split[] powers = new Split[POWERS * 6];
    private final byte[] tail = new byte[BLOCK];
    /** The length block's product by H for {@code lengths}, reduced, as GCM orders bits. */
    private long lengths = -1;
    private long lengthsHi;
    private long lengthsLo;
    /** The running value, or the result: bytes 0-7 and 8-15 of the block, big-endian. */
    private long y0;
    private long y1;
    /** A product before its reduction, as ordinary polynomials: terms 0-63, 64-127, 128-191, 192-255. */
    private long r0;
    private long r1;
    private long r2;
    private long r3;

    /** Takes the hash key H, the encryption of a zero block: {@code h0}, {@code h1} its halves read big-endian. */
    void key(long h0, long h1) {
        y0 = h0;
        y1 = h1;
        for (int k = 1; k <= POWERS; k++) {
            int at = (k - 1) * 6;
            powers[at + 3] = new Split(y0);
            powers[at + 4] = new Split(y1);
            powers[at + 5] = new Split(y0 ^ y1);
            powers[at] = new Split(Long.reverse(y0));
            powers[at + 1] = new Split(Long.reverse(y1));
            powers[at + 2] = new Split(Long.reverse(y0 ^ y1));
            if (k < POWERS) {
                multiply(); // y = H^(k+1)
            }
        }
        lengths = -1;
        y0 = 0;
        y1 = 0;
    }

    /**
     * GHASH of {@code aadLength} bytes of {@code aad} and {@code length} bytes of {@code c} from {@code offset},
     * each padded to a block, then their bit lengths: the result is {@link #hi()} and {@link #lo()}.
     */
    void hash(byte[] aad, int aadLength, byte[] c, int offset, int length) {
        int blocks = (length + BLOCK - 1) / BLOCK;
        if (aadLength > 0 && aadLength <= Long.BYTES && blocks + 2 <= POWERS) {
            sumOfPowers(aad, aadLength, c, offset, length, blocks);
            return;
        }
        y0 = 0;
        y1 = 0;
        absorb(aad, 0, aadLength);
        absorb(c, offset, length);
        y0 ^= (long) aadLength << 3;
        y1 ^= (long) length << 3;
        multiply();
    }

    /** The first half of the last {@link #hash}, big-endian. */
    long hi() {
        return y0;
    }

    /** The second half of the last {@link #hash}, big-endian. */
    long lo() {
        return y1;
    }

    /** Leaves nothing of the last hash behind. */
    void wipe() {
        y0 = 0;
        y1 = 0;
        r0 = 0;
        r1 = 0;
        r2 = 0;
        r3 = 0;
        Arrays.fill(tail, (byte) 0);
    }

    /** A * H^(blocks + 2) + C1 * H^(blocks + 1) + ... + Cn * H^2, reduced, plus the length block's (cached) L * H. */
    private void sumOfPowers(byte[] aad, int aadLength, byte[] c, int offset, int length, int blocks) {
        long first = 0;
        for (int i = 0; i < aadLength; i++) {
            first |= (aad[i] & 0xFFL) << 56 - 8 * i;
        }
        r0 = 0;
        r1 = 0;
        r2 = 0;
        r3 = 0;
        addHalfProduct(first, blocks + 2);
        int whole = length & -BLOCK;
        int power = blocks + 1;
        for (int i = 0; i < whole; i += BLOCK) {
            addProduct((long) LONGS.get(c, offset + i), (long) LONGS.get(c, offset + i + 8), power--);
        }
        if (whole < length) {
            byte[] t = tail;
            Arrays.fill(t, (byte) 0);
            System.arraycopy(c, offset + whole, t, 0, length - whole);
            addProduct((long) LONGS.get(t, 0), (long) LONGS.get(t, 8), power);
        }
        reduce();
        long key = (long) aadLength << 32 | length;
        if (key != lengths) {
            long sum0 = y0;
            long sum1 = y1;
            y0 = (long) aadLength << 3;
            y1 = (long) length << 3;
            multiply();
            lengthsHi = y0;
            lengthsLo = y1;
            lengths = key;
            y0 = sum0;
            y1 = sum1;
        }
        y0 ^= lengthsHi;
        y1 ^= lengthsLo;
    }

    private void absorb(byte[] a, int offset, int length) {
        int whole = length & -BLOCK;
        for (int i = 0; i < whole; i += BLOCK) {
            y0 ^= (long) LONGS.get(a, offset + i);
            y1 ^= (long) LONGS.get(a, offset + i + 8);
            multiply();
        }
        int rest = length - whole;
        if (rest > 0) {
            byte[] t = tail;
            Arrays.fill(t, (byte) 0);
            System.arraycopy(a, offset + whole, t, 0, rest);
            y0 ^= (long) LONGS.get(t, 0);
            y1 ^= (long) LONGS.get(t, 8);
            multiply();
        }
    }

    /** y = y * H. */
    private void multiply() {
        r0 = 0;
        r1 = 0;
        r2 = 0;
        r3 = 0;
        addProduct(y0, y1, 1);
        reduce();
    }

    /** Adds the unreduced product of the block (ra, rb), as GCM orders bits, and H^power. */
    private void addProduct(long ra, long rb, int power) {
        int at = (power - 1) * 6;
        Split[] h = powers;
        long a = Long.reverse(ra);
        long b = Long.reverse(rb);
        long acLo = clmul(a, h[at]);
        long bdLo = clmul(b, h[at + 1]);
        long midLo = clmul(a ^ b, h[at + 2]) ^ acLo ^ bdLo;
        long acHi = Long.reverse(clmul(ra, h[at + 3])) >>> 1;
        long bdHi = Long.reverse(clmul(rb, h[at + 4])) >>> 1;
        long midHi = (Long.reverse(clmul(ra ^ rb, h[at + 5])) >>> 1) ^ acHi ^ bdHi;
        r0 ^= acLo;
        r1 ^= acHi ^ midLo;
        r2 ^= bdLo ^ midHi;
        r3 ^= bdHi;
    }

    /** As {@link #addProduct} for a block whose second half is zero: two products instead of three. */
    private void addHalfProduct(long ra, int power) {
        int at = (power - 1) * 6;
        Split[] h = powers;
        long a = Long.reverse(ra);
        long acLo = clmul(a, h[at]);
        long adLo = clmul(a, h[at + 1]);
        long acHi = Long.reverse(clmul(ra, h[at + 3])) >>> 1;
        long adHi = Long.reverse(clmul(ra, h[at + 4])) >>> 1;
        r0 ^= acLo;
        r1 ^= acHi ^ adLo;
        r2 ^= adHi;
    }

    /** y = r modulo x^128 + x^7 + x^2 + x + 1, back in GCM's bit order. */
    private void reduce() {
        long over = r3 >>> 63 ^ r3 >>> 62 ^ r3 >>> 57;
        // r2 + r3 x^64 times x^128 = times (x^7 + x^2 + x + 1); its terms past x^127 folded once more.
        long lo = r0 ^ r2 ^ r2 << 1 ^ r2 << 2 ^ r2 << 7 ^ over ^ over << 1 ^ over << 2 ^ over << 7;
        long hi = r1 ^ r3 ^ (r3 << 1 | r2 >>> 63) ^ (r3 << 2 | r2 >>> 62) ^ (r3 << 7 | r2 >>> 57);
        y0 = Long.reverse(lo);
        y1 = Long.reverse(hi);
    }

    /**
     * The low 64 terms of the carry-less product of {@code x} and {@code y}, by integer multiplication: each operand
     * split into four, every fourth bit, so that the sums of terms a product adds at each kept bit (at most 15 below
     * the top four bits, 16 only where the carry leaves the word) never carry into another kept bit.
     */
    private static long clmul(long x, Split y) {
        long x0 = x & M0;
        long x1 = x & M1;
        long x2 = x & M2;
        long x3 = x & M3;
        long z0 = x0 * y.p0 ^ x1 * y.p3 ^ x2 * y.p2 ^ x3 * y.p1;
        long z1 = x0 * y.p1 ^ x1 * y.p0 ^ x2 * y.p3 ^ x3 * y.p2;
        long z2 = x0 * y.p2 ^ x1 * y.p1 ^ x2 * y.p0 ^ x3 * y.p3;
        long z3 = x0 * y.p3 ^ x1 * y.p2 ^ x2 * y.p1 ^ x3 * y.p0;
        return z0 & M0 | z1 & M1 | z2 & M2 | z3 & M3;
    }

    /** An operand of {@link #clmul} split every fourth bit, once per key rather than once per product. */
    private static final class Split {
        final long p0;
        final long p1;
        final long p2;
        final long p3;

        Split(long v) {
            p0 = v & M0;
            p1 = v & M1;
            p2 = v & M2;
            p3 = v & M3;
        }
    }
}
