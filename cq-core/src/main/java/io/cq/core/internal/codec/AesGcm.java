package io.cq.core.internal.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/**
 * AES-GCM (NIST SP 800-38D) with 96-bit nonces and 128-bit tags, the bytes the JCE's {@code AES/GCM/NoPadding}
 * makes, computed over the JCE's AES block cipher initialised once per key. The JCE's GCM must be initialised again
 * for every nonce, which allocates about a kilobyte each time (parameter spec, engine, hash and counter state); at
 * hundreds of thousands of excerpts a second that garbage, not the cipher, set the latency tail. Here a key costs one
 * {@code Cipher.init} and a 64 KiB multiplication table, and an excerpt nothing: its counter blocks are encrypted in
 * one {@code Cipher.update} call (AES-NI where the JVM has it), and GHASH sums products looked up in the table.
 * {@code AesGcmTest} holds it to the JCE's GCM, byte for byte, on random keys, nonces, associated data and lengths.
 *
 * <p>The table is indexed by data that depends on the hash key, as table-driven GHASH is in most software
 * implementations: code that shares the CPU's caches with the process could learn about it through timing. At-rest
 * encryption trusts the host that holds the key (docs/codecs.md, "What it does not protect").
 *
 * <p>One per frame writer or reader: not thread-safe.
 */
final class AesGcm {
    static final int BLOCK = 16;
    static final int TAG_LENGTH = 16;
    static final int NONCE_LENGTH = 12;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** x^128 = x^7 + x^2 + x + 1, in GCM's reflected bit order: the top byte of the first half. */
    private static final long R = 0xE100000000000000L;
    /** Per byte shifted out of a product: what reducing its eight terms adds to the first half. */
    private static final long[] REDUCE = new long[256];

    static {
        for (int m = 0; m < 256; m++) {
            long r = 0;
            for (int bit = 0; bit < 8; bit++) {
                if ((m & (1 << bit)) != 0) {
                    r ^= R >>> (7 - bit);
                }
            }
            REDUCE[m] = r;
        }
    }

    private final Cipher aes;
    private SecretKey key;
    /**
     * The products of the hash key H by each byte value at each of a block's sixteen positions (64 KiB), each as its
     * two halves: entry {@code (position * 256 + byte) * 2}.
     */
    private final long[] table = new long[16 * 256 * 2];
    /** Counter blocks, then their encryption: the tag's mask in block 0, the key stream after it. */
    private byte[] counters = new byte[8 * BLOCK];
    private byte[] stream = new byte[8 * BLOCK];
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
        try {
            aes.init(Cipher.ENCRYPT_MODE, k);
            byte[] h = aes.doFinal(new byte[BLOCK]);
            fillTable((long) LONGS.get(h, 0), (long) LONGS.get(h, 8));
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
            return -1;
        }
        for (int i = 0; i < n; i++) {
            out[outOffset + i] = (byte) (in[inOffset + i] ^ s[BLOCK + i]);
        }
        return n;
    }

    /** Encrypts J0 (for the tag) and the counter blocks after it, enough for {@code length} bytes, into stream. */
    private void keyStream(byte[] nonce, int length) {
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
            java.util.Arrays.fill(t, (byte) 0);
            System.arraycopy(a, offset + whole, t, 0, rest);
            y0 ^= (long) LONGS.get(t, 0);
            y1 ^= (long) LONGS.get(t, 8);
            multiply();
        }
    }

    /**
     * y = y * H in GF(2^128): the sum of the table's products of each of y's sixteen bytes, at its position, by H.
     * The lookups do not depend on each other, so they overlap, where Horner's rule over the bytes would wait for
     * each step before the next (three times slower here).
     */
    private void multiply() {
        long[] t = table;
        long a = y0;
        long b = y1;
        long z0 = 0;
        long z1 = 0;
        for (int i = 0; i < 8; i++) {
            int at = (i << 8 | (int) (a >>> 56)) << 1;
            z0 ^= t[at];
            z1 ^= t[at + 1];
            a <<= 8;
        }
        for (int i = 8; i < 16; i++) {
            int at = (i << 8 | (int) (b >>> 56)) << 1;
            z0 ^= t[at];
            z1 ^= t[at + 1];
            b <<= 8;
        }
        y0 = z0;
        y1 = z1;
    }

    /**
     * The products of H by every byte at every position of a block. At position 0, entry {@code reverse(i)} is
     * {@code i(x) * H}, where bit k of {@code i} is the coefficient of x^k (GCM numbers bits from a byte's top bit);
     * each position after holds the one before times x^8.
     */
    private void fillTable(long h0, long h1) {
        long[] t = table;
        t[reverse(1) << 1] = h0;
        t[(reverse(1) << 1) + 1] = h1;
        for (int i = 2; i < 256; i += 2) {
            int half = reverse(i / 2) << 1;
            long d0 = t[half] >>> 1;
            long d1 = t[half + 1] >>> 1 | t[half] << 63;
            if ((t[half + 1] & 1) != 0) {
                d0 ^= R; // x times: the term of x^128 the shift made is reduced
            }
            int even = reverse(i) << 1;
            int odd = reverse(i + 1) << 1;
            t[even] = d0;
            t[even + 1] = d1;
            t[odd] = d0 ^ h0;
            t[odd + 1] = d1 ^ h1;
        }
        for (int at = 256 * 2; at < t.length; at += 2) {
            long p0 = t[at - 512];
            long p1 = t[at - 511];
            t[at] = p0 >>> 8 ^ REDUCE[(int) p1 & 0xff];
            t[at + 1] = p1 >>> 8 | p0 << 56;
        }
    }

    private static int reverse(int b) {
        return Integer.reverse(b) >>> 24;
    }
}
