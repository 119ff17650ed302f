package io.cq.core.internal.codec;

import io.cq.core.codec.EncryptionKeys;

import java.security.GeneralSecurityException;
import javax.crypto.KDF;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;

/**
 * A cycle file's key for one key id: HKDF-SHA256 of the master key with the file's random salt (docs/file-format.md,
 * "Excerpt codecs"), so no two files share a key, however often a queue is deleted and made again. Remembers the
 * last one derived: an appender or tailer derives once per file and key id, not per excerpt. Not thread-safe.
 */
final class FileKeys {
    private static final byte[] INFO = "cq excerpt key v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] salt;
    private int keyId;
    private SecretKey derived;
    private KDF hkdf;

    /** The file's key for {@code keyId}, or null when {@code keys} lacks that id. */
    SecretKey fileKey(EncryptionKeys keys, byte[] fileSalt, int id) {
        if (fileSalt == salt && id == keyId && derived != null) {
            return derived;
        }
        SecretKey master = keys.key(id);
        if (master == null) {
            return null;
        }
        byte[] ikm = master.getEncoded();
        try {
            if (hkdf == null) {
                hkdf = KDF.getInstance("HKDF-SHA256");
            }
            byte[] info = new byte[INFO.length + 4];
            System.arraycopy(INFO, 0, info, 0, INFO.length);
            info[INFO.length] = (byte) (id >>> 24);
            info[INFO.length + 1] = (byte) (id >>> 16);
            info[INFO.length + 2] = (byte) (id >>> 8);
            info[INFO.length + 3] = (byte) id;
            derived = hkdf.deriveKey("AES", HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(fileSalt)
                    .thenExpand(info, ikm.length));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot derive a cycle file's key with HKDF-SHA256: " + e.getMessage(), e);
        } finally {
            java.util.Arrays.fill(ikm, (byte) 0);
        }
        salt = fileSalt;
        keyId = id;
        return derived;
    }
}
