package io.cq.core.codec;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.SecretKey;

/** Keys held in memory: what {@link EncryptionKeys#of} and {@link EncryptionKeys#fromKeyStore} give. */
final class KeyRing implements EncryptionKeys {
    private final int current;
    private final Map<Integer, SecretKey> keys;
    private final String source;

    KeyRing(int current, Map<Integer, SecretKey> keys, String source) {
        this.keys = Map.copyOf(Objects.requireNonNull(keys, "keys"));
        this.current = current;
        this.source = source;
        if (!this.keys.containsKey(current)) {
            throw new IllegalArgumentException("the current key id " + hex(current) + " is not among the keys "
                    + "given (" + describeIds() + ")");
        }
        this.keys.forEach((id, key) -> {
            byte[] bytes = key.getEncoded();
            if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || bytes == null
                    || bytes.length != 16 && bytes.length != 32) {
                throw new IllegalArgumentException("key " + hex(id) + " is no AES key of 16 or 32 bytes whose bytes "
                        + "can be read (algorithm " + key.getAlgorithm() + ", "
                        + (bytes == null ? "bytes not readable" : bytes.length + " bytes") + ")");
            }
        });
    }

    @Override
    public int currentKeyId() {
        return current;
    }

    @Override
    public SecretKey key(int keyId) {
        return keys.get(keyId);
    }

    @Override
    public String describe() {
        return source + ", key ids " + describeIds() + ", current " + hex(current);
    }

    private String describeIds() {
        StringBuilder ids = new StringBuilder();
        new TreeMap<>(keys).keySet().forEach(id -> ids.append(ids.isEmpty() ? "" : ", ").append(hex(id)));
        return ids.toString();
    }

    static String hex(int id) {
        return String.format("0x%08x", id);
    }

    @Override
    public String toString() {
        return describe();
    }
}
