package io.cq.core.internal.codec;

import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals and opens excerpts with AES-GCM, choosing per excerpt between two computations of the same bytes: small
 * excerpts through {@link AesGcm}, which allocates nothing, larger ones through the JCE's {@code AES/GCM/NoPadding},
 * whose GHASH runs on the CPU's carry-less multiplication instructions (a fraction of a microsecond for 1 KiB,
 * several microseconds in Java) but which allocates about 1 KiB for each initialisation, that is for each excerpt
 * (docs/notes/performance-journal.md, "AES-GCM without a Cipher.init per excerpt"). Both make the bytes NIST
 * SP 800-38D defines, so a reader may open with one what a writer sealed with the other. One per frame writer or
 * reader: not thread-safe.
 */
final class ExcerptGcm {
    /**
     * The largest excerpt sealed without the JCE's GCM: up to here an excerpt costs at most a few hundred
     * nanoseconds more than through the JCE, and no garbage; past it, the JCE's instructions win by more each
     * block, and an excerpt of this size or more is rarely written hundreds of thousands of times a second.
     */
    static final int OWN_UP_TO = 160;

    private final AesGcm own = new AesGcm();
    private Cipher jce;

    /**
     * Encrypts {@code length} bytes of {@code in} into {@code out} at {@code outOffset}, the tag after them.
     *
     * @return the bytes written: {@code length + 16}
     */
    int seal(SecretKey key, byte[] nonce, byte[] aad, byte[] in, int length, byte[] out, int outOffset)
            throws GeneralSecurityException {
        if (length <= OWN_UP_TO) {
            own.key(key);
            return own.seal(nonce, aad, aad.length, in, 0, length, out, outOffset);
        }
        Cipher c = jce();
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(Frames.GCM_TAG_BITS, nonce));
        c.updateAAD(aad);
        return c.doFinal(in, 0, length, out, outOffset);
    }

    /**
     * Checks and decrypts {@code length} bytes of {@code in} (ciphertext and tag) into {@code out} from 0.
     *
     * @return the plaintext's length
     * @throws AEADBadTagException when the tag does not match: then nothing was decrypted
     */
    int open(SecretKey key, byte[] nonce, byte[] aad, byte[] in, int length, byte[] out)
            throws GeneralSecurityException {
        if (length - AesGcm.TAG_LENGTH <= OWN_UP_TO) {
            own.key(key);
            int n = own.open(nonce, aad, aad.length, in, 0, length, out, 0);
            if (n < 0) {
                throw new AEADBadTagException("tag mismatch");
            }
            return n;
        }
        Cipher c = jce();
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(Frames.GCM_TAG_BITS, nonce));
        c.updateAAD(aad);
        return c.doFinal(in, 0, length, out, 0);
    }

    private Cipher jce() throws GeneralSecurityException {
        return jce != null ? jce : (jce = Cipher.getInstance(Frames.CIPHER));
    }
}
