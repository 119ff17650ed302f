package io.cq.core.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import javax.crypto.SecretKey;

/**
 * The keys of an encrypted queue (docs/codecs.md), numbered by key id. New excerpts are encrypted with the current
 * key; every excerpt names the id of the key it was encrypted with, so keys rotate: a new current key for new
 * excerpts, the old ones kept for reading. Keys are never written to the queue. AES keys of 16 or 32 bytes whose
 * {@link SecretKey#getEncoded()} gives their bytes (every key of a Java key store does).
 *
 * <p>Implement it to fetch keys from a vault; it is asked for a key once per cycle file and key id, never per
 * excerpt. Implementations must be thread-safe.
 */
public interface EncryptionKeys {
    /** The id of the key new excerpts are encrypted with. */
    int currentKeyId();

    /** The key with this id, or null when this provider does not have it. */
    SecretKey key(int keyId);

    /** For error messages: what this provider is and the ids it has, never a key's bytes. */
    String describe();

    /**
     * Keys given by id.
     *
     * @throws IllegalArgumentException when {@code keys} lacks the current id, or a key is no AES key of 16 or 32
     *                                  bytes
     */
    static EncryptionKeys of(int currentKeyId, Map<Integer, SecretKey> keys) {
        return new KeyRing(currentKeyId, keys, "keys given in code");
    }

    /** One key, id 1: a queue whose key never rotates. */
    static EncryptionKeys of(SecretKey key) {
        return of(1, Map.of(1, key));
    }

    /**
     * Every AES secret-key entry of a Java key store (PKCS12 or JCEKS) read with one password; the entry named
     * {@code currentAlias} encrypts new excerpts. A key's id is {@link #idOf(String)} of its alias, so the same
     * alias gives the same id in every process and after a rotation.
     *
     * @throws IllegalArgumentException when the store cannot be read with the password, lacks the alias, or two
     *                                  aliases give one id
     */
    static EncryptionKeys fromKeyStore(Path keyStore, char[] password, String currentAlias) {
        Objects.requireNonNull(keyStore, "keyStore");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(currentAlias, "currentAlias");
        KeyStore store;
        try {
            store = KeyStore.getInstance(keyStore.toFile(), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read key store " + keyStore + ": " + e.getMessage()
                    + " (wrong password, or not a PKCS12 or JCEKS file?)", e);
        }
        Map<Integer, SecretKey> keys = new TreeMap<>();
        Map<Integer, String> aliases = new TreeMap<>();
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (!store.isKeyEntry(alias)) {
                    continue;
                }
                Key key = store.getKey(alias, password);
                if (!(key instanceof SecretKey secret) || !"AES".equalsIgnoreCase(secret.getAlgorithm())) {
                    continue;
                }
                int id = idOf(alias);
                String clash = aliases.putIfAbsent(id, alias);
                if (clash != null) {
                    throw new IllegalArgumentException("key store " + keyStore + ": aliases '" + clash + "' and '"
                            + alias + "' give the same key id " + KeyRing.hex(id) + "; rename one");
                }
                keys.put(id, secret);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the keys of key store " + keyStore + ": "
                    + e.getMessage(), e);
        }
        int current = idOf(currentAlias);
        if (!currentAlias.equalsIgnoreCase(aliases.getOrDefault(current, ""))) {
            throw new IllegalArgumentException("key store " + keyStore + " has no AES secret key '" + currentAlias
                    + "' (AES keys there: " + aliases.values() + ")");
        }
        StringBuilder shown = new StringBuilder("key store ").append(keyStore).append(" (");
        aliases.forEach((id, alias) -> shown.append(alias).append(" = ").append(KeyRing.hex(id)).append(", "));
        shown.setLength(shown.length() - 2);
        return new KeyRing(current, keys, shown.append(')').toString());
    }

    /**
     * The key id of a key store alias: the CRC-32C of its lower-case UTF-8 bytes (key stores may lower-case aliases),
     * so that an alias names the same key everywhere.
     */
    static int idOf(String alias) {
        CRC32C crc = new CRC32C();
        crc.update(alias.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }
}
