package io.cq.spring.boot.autoconfigure;

import org.jspecify.annotations.Nullable;

import java.nio.file.Path;

/**
 * Encryption at rest of one queue, under {@code cq.queues.<name>.encryption}: the Java key store (PKCS12 or JCEKS)
 * holding the queue's AES keys, its password and the alias of the key that encrypts new excerpts. Every AES key of
 * the store can decrypt (keys rotate: a new alias becomes current, the old ones stay for reading); a key's id in
 * the queue is the CRC-32C of its lower-case alias. The password is best given through an environment variable or
 * a config tree; it is never logged or shown.
 */
public class QueueEncryptionProperties {

    /**
     * The key store file (PKCS12 or JCEKS) with the queue's AES keys. Set on a new queue (with key-store-password
     * and key-alias), the queue is created encrypted; on an existing encrypted queue, it gives the keys to read
     * and write it.
     */
    private @Nullable Path keyStore;

    /** Password of the key store and of its keys; set it from an environment variable or a config tree. */
    private @Nullable String keyStorePassword;

    /** Alias of the key store entry that encrypts new excerpts (the current key). */
    private @Nullable String keyAlias;

    public @Nullable Path getKeyStore() {
        return keyStore;
    }

    public void setKeyStore(@Nullable Path keyStore) {
        this.keyStore = keyStore;
    }

    public @Nullable String getKeyStorePassword() {
        return keyStorePassword;
    }

    public void setKeyStorePassword(@Nullable String keyStorePassword) {
        this.keyStorePassword = keyStorePassword;
    }

    public @Nullable String getKeyAlias() {
        return keyAlias;
    }

    public void setKeyAlias(@Nullable String keyAlias) {
        this.keyAlias = keyAlias;
    }

    /** Whether any of the properties is set. */
    boolean isConfigured() {
        return keyStore != null || keyStorePassword != null || keyAlias != null;
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "QueueEncryptionProperties[keyStore=" + keyStore + ", keyAlias=" + keyAlias + ", keyStorePassword="
                + (keyStorePassword == null ? "unset" : "******") + "]";
    }
}
