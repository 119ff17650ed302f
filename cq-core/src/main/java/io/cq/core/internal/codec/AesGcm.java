package io.cq.core.internal.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/**
 * AES-GCM (NIST SP 800-38D) with 96-bit nonces and 128-bit tags, the bytes the JCE's {@code AES/GCM/NoPadding}
 * makes, computed over the JCE's AES block cipher initialised once per key. The JCE's GCM must be initialised again
 * for every nonce, which allocates about a kilobyte each time (parameter spec, engine, hash and counter state); at
 * hundreds of thousands of excerpts a second that garbage, not the cipher, set the latency tail (docs/notes/
 * performance-journal.md, "AES-GCM without a Cipher.init per excerpt"). Here a key costs one {@code Cipher.init},
 * and an excerpt nothing: its counter blocks are encrypted in one {@code Cipher.update} call (AES-NI where the JVM
 * has it), and GHASH multiplies with integer multiplications, in constant time: no branch and no memory access
 * depends on the data or the key, unlike the tables of most software GHASH, whose timing code sharing the CPU's
 * caches can read. {@code AesGcmTest} holds it to the JCE's GCM, byte for byte, on random keys, nonces, associated
 * data and lengths.
 *
 * <p>For excerpts of up to {@value #MAX_LENGTH} bytes ({@link ExcerptGcm} hands it far smaller ones). One per frame
 * writer or reader: not thread-safe.
 */
final class AesGcm {
    static final int BLOCK = 16;
    static final int TAG_LENGTH = 16;
    static final int NONCE_LENGTH = 12;
    /** Past this the JCE's GCM, on the CPU's carry-less multiplication, is several times faster anyway. */
    static final int MAX_LENGTH = 4096;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final long M0 = 0x1111111111111111L;
    private static final long M1 = 0x2222222222222222L;
    private static final long M2 = 0x4444444444444444L;
    private static final long M3 = 0x8888888888888888L;

    private final Cipher aes;
    private SecretKey key;
    /** The hash key H's halves as ordinary polynomials (bit k the term of x^k), and as GCM orders them. */
    private long h0;
    private long h1;
    private long hr0;
    private long hr1;
    /**
     * Counter blocks, then their encryption: the tag's mask in block 0, the key stream after it; wiped after each
     * excerpt. Sized for what {@link ExcerptGcm} hands over, grown (once) only for a longer excerpt.
     */
    private byte[] counters = new byte[BLOCK + ExcerptGcm.OWN_UP_TO + BLOCK];
    private byte[] stream = new byte[BLOCK + ExcerptGcm.OWN_UP_TO + BLOCK];
    private final byte[] tail = new byte[BLOCK];
    /** GHASH's running value, two halves (bytes 0-7 and 8-15 of the block, big-endian). */
    private long y0;
    private long y1;

    AesGcm() {
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no AES block cipher: " + e.getMessage(), e);
        }
    }

    /** Takes {@code k} as the key, unless it already is. */
    void key(SecretKey k) {
        if (k == key) {
            return;
        }
        key = null; // until init succeeds: a failed init leaves the cipher unusable, whatever key it had
        try {
            aes.init(Cipher.ENCRYPT_MODE, k);
            byte[] h = aes.doFinal(new byte[BLOCK]);
            hr0 = (long) LONGS.get(h, 0);
            hr1 = (long) LONGS.get(h, 8);
            h0 = Long.reverse(hr0);
            h1 = Long.reverse(hr1);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot initialise AES with the cycle file's key: " + e.getMessage(), e);
        }
        key = k;
    }

    /**
     * Encrypts {@code length} bytes of {@code in} from {@code inOffset} into {@code out} at {@code outOffset}, the
     * tag after them, authenticating {@code aadLength} bytes of {@code aad} as well.
     *
     * @return the bytes written: {@code length + 16}
     */
    int seal(byte[] nonce, byte[] aad, int aadLength, byte[] in, int inOffset, int length, byte[] out,
             int outOffset) {
        keyStream(nonce, length);
        byte[] s = stream;
        for (int i = 0; i < length; i++) {
            out[outOffset + i] = (byte) (in[inOffset + i] ^ s[BLOCK + i]);
        }
        hash(aad, aadLength, out, outOffset, length);
        LONGS.set(out, outOffset + length, y0 ^ (long) LONGS.get(s, 0));
        LONGS.set(out, outOffset + length + 8, y1 ^ (long) LONGS.get(s, 8));
        wipe(length);
        return length + TAG_LENGTH;
    }

    /**
     * Checks the tag of {@code length} bytes of {@code in} (the ciphertext, then its tag) and, when it matches,
     * decrypts the ciphertext into {@code out} at {@code outOffset}; else writes nothing.
     *
     * @return the plaintext's length, or -1 when the tag does not match
     */
    int open(byte[] nonce, byte[] aad, int aadLength, byte[] in, int inOffset, int length, byte[] out,
             int outOffset) {
        int n = length - TAG_LENGTH;
        if (n < 0) {
            return -1;
        }
        keyStream(nonce, n);
        byte[] s = stream;
        hash(aad, aadLength, in, inOffset, n);
        long diff = (y0 ^ (long) LONGS.get(s, 0) ^ (long) LONGS.get(in, inOffset + n))
                | (y1 ^ (long) LONGS.get(s, 8) ^ (long) LONGS.get(in, inOffset + n + 8));
        if (diff != 0) {
            wipe(n);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            out[outOffset + i] = (byte) (in[inOffset + i] ^ s[BLOCK + i]);
        }
        wipe(n);
        return n;
    }

    /** Encrypts J0 (for the tag) and the counter blocks after it, enough for {@code length} bytes, into stream. */
    private void keyStream(byte[] nonce, int length) {
        if (length > MAX_LENGTH) {
            throw new IllegalArgumentException("excerpt of " + length + " bytes: at most " + MAX_LENGTH);
        }
        int blocks = 1 + (length + BLOCK - 1) / BLOCK;
        int bytes = blocks * BLOCK;
        if (counters.length < bytes) {
            int size = Math.max(bytes, counters.length * 2);
            counters = new byte[size];
            stream = new byte[size];
        }
        byte[] c = counters;
        long n0 = (long) LONGS.get(nonce, 0);
        int n1 = (nonce[8] & 0xff) << 24 | (nonce[9] & 0xff) << 16 | (nonce[10] & 0xff) << 8 | nonce[11] & 0xff;
        for (int b = 0; b < blocks; b++) {
            // J0 = nonce || 1; the key stream starts at inc32(J0) = nonce || 2.
            LONGS.set(c, b * BLOCK, n0);
            LONGS.set(c, b * BLOCK + 8, (long) n1 << 32 | (b + 1) & 0xFFFFFFFFL);
        }
        try {
            aes.update(c, 0, bytes, stream, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed: " + e.getMessage(), e);
        }
    }

    /**
     * Leaves no key stream, tag mask or hash state behind: with them, a forged excerpt refused once could be given
     * a tag that passes.
     */
    private void wipe(int length) {
        Arrays.fill(stream, 0, BLOCK + length + BLOCK - 1 & -BLOCK, (byte) 0);
        y0 = 0;
        y1 = 0;
    }

    /** GHASH of the associated data and the ciphertext, each padded to a block, then their bit lengths. */
    private void hash(byte[] aad, int aadLength, byte[] c, int offset, int length) {
        y0 = 0;
        y1 = 0;
        absorb(aad, 0, aadLength);
        absorb(c, offset, length);
        y0 ^= (long) aadLength << 3;
        y1 ^= (long) length << 3;
        multiply();
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

    /**
     * y = y * H in GF(2^128), in constant time: no branch and no memory access depends on y or H. GCM numbers a
     * block's bits from the first byte's top bit, so a block's halves, read big-endian, are its two 64-term halves
     * with their bits reversed. Reversed again they are ordinary polynomials: the product is Karatsuba's three
     * carry-less multiplications of 64-bit halves, each the low half of {@link #clmul} and its high half (the low
     * half of the product of the reversed operands, reversed: that is why both forms are at hand), then reduced by
     * x^128 = x^7 + x^2 + x + 1.
     */
    private void multiply() {
        long ra = y0;
        long rb = y1;
        long a = Long.reverse(ra);
        long b = Long.reverse(rb);
        long acLo = clmul(a, h0);
        long bdLo = clmul(b, h1);
        long midLo = clmul(a ^ b, h0 ^ h1) ^ acLo ^ bdLo;
        long acHi = Long.reverse(clmul(ra, hr0)) >>> 1;
        long bdHi = Long.reverse(clmul(rb, hr1)) >>> 1;
        long midHi = (Long.reverse(clmul(ra ^ rb, hr0 ^ hr1)) >>> 1) ^ acHi ^ bdHi;
        long r0 = acLo;
        long r1 = acHi ^ midLo;
        long r2 = bdLo ^ midHi;
        long r3 = bdHi;
        // r2 + r3 x^64 times x^128 = times (x^7 + x^2 + x + 1); its terms past x^127 folded once more.
        long over = r3 >>> 63 ^ r3 >>> 62 ^ r3 >>> 57;
        r0 ^= r2 ^ r2 << 1 ^ r2 << 2 ^ r2 << 7 ^ over ^ over << 1 ^ over << 2 ^ over << 7;
        r1 ^= r3 ^ (r3 << 1 | r2 >>> 63) ^ (r3 << 2 | r2 >>> 62) ^ (r3 << 7 | r2 >>> 57);
        y0 = Long.reverse(r0);
        y1 = Long.reverse(r1);
    }

    /**
     * The low 64 terms of the carry-less product of {@code x} and {@code y}, by integer multiplication: each operand
     * split into four, every fourth bit, so that the sums of terms a product adds at each kept bit (at most 15 below
     * the top four bits, 16 only where the carry leaves the word) never carry into another kept bit.
     */
    private static long clmul(long x, long y) {
        long x0 = x & M0;
        long x1 = x & M1;
        long x2 = x & M2;
        long x3 = x & M3;
        long y0 = y & M0;
        long y1 = y & M1;
        long y2 = y & M2;
        long y3 = y & M3;
        long z0 = x0 * y0 ^ x1 * y3 ^ x2 * y2 ^ x3 * y1;
        long z1 = x0 * y1 ^ x1 * y0 ^ x2 * y3 ^ x3 * y2;
        long z2 = x0 * y2 ^ x1 * y1 ^ x2 * y0 ^ x3 * y3;
        long z3 = x0 * y3 ^ x1 * y2 ^ x2 * y1 ^ x3 * y0;
        return z0 & M0 | z1 & M1 | z2 & M2 | z3 & M3;
    }
}
