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
 * has it), and {@link Ghash} hashes in constant time. {@code AesGcmTest} holds it to the JCE's GCM, byte for byte,
 * on random keys, nonces, associated data and lengths.
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

    private final Cipher aes;
    private SecretKey key;
    private final Ghash ghash = new Ghash();
    /**
     * Counter blocks, then their encryption: the tag's mask in block 0, the key stream after it; wiped after each
     * excerpt. Sized for what {@link ExcerptGcm} hands over, grown (once) only for a longer excerpt.
     */
    private byte[] counters = new byte[BLOCK + ExcerptGcm.OWN_UP_TO + BLOCK];
    private byte[] stream = new byte[BLOCK + ExcerptGcm.OWN_UP_TO + BLOCK];

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
            ghash.key((long) LONGS.get(h, 0), (long) LONGS.get(h, 8));
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
        xor(in, inOffset, s, out, outOffset, length);
        ghash.hash(aad, aadLength, out, outOffset, length);
        LONGS.set(out, outOffset + length, ghash.hi() ^ (long) LONGS.get(s, 0));
        LONGS.set(out, outOffset + length + 8, ghash.lo() ^ (long) LONGS.get(s, 8));
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
        ghash.hash(aad, aadLength, in, inOffset, n);
        long diff = (ghash.hi() ^ (long) LONGS.get(s, 0) ^ (long) LONGS.get(in, inOffset + n))
                | (ghash.lo() ^ (long) LONGS.get(s, 8) ^ (long) LONGS.get(in, inOffset + n + 8));
        if (diff != 0) {
            wipe(n);
            return -1;
        }
        xor(in, inOffset, s, out, outOffset, n);
        wipe(n);
        return n;
    }

    /** out = in XOR the key stream, eight bytes at a time where it can. */
    private static void xor(byte[] in, int inOffset, byte[] s, byte[] out, int outOffset, int length) {
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            LONGS.set(out, outOffset + i, (long) LONGS.get(in, inOffset + i) ^ (long) LONGS.get(s, BLOCK + i));
        }
        for (; i < length; i++) {
            out[outOffset + i] = (byte) (in[inOffset + i] ^ s[BLOCK + i]);
        }
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
        ghash.wipe();
    }
}
