package io.cq.spring.boot.autoconfigure;

import io.cq.core.CodecsMismatchException;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.QueueException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.spring.support.InvalidQueuePropertyException;
import io.cq.spring.support.QueueCodecsException;
import org.jspecify.annotations.Nullable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Applies {@code cq.queues.<name>.checksums}, {@code .compression}, {@code .compression-threshold} and
 * {@code .encryption.*} to a queue's builder, and explains the failures of codecs and keys with a
 * {@link QueueCodecsException} naming the property to change. Without these properties the queue opens with the
 * codecs it was created with. A key store alone gives the keys of an existing queue, and creates a new one
 * encrypted; checksums or compression, set, choose every codec, and must then be the existing queue's.
 */
final class QueueCodecsConfigurer {
    /** The queue's table store (see {@code MappedQueue}): in the directory once the queue exists. */
    private static final String TABLE_STORE = "metadata.cq4t";
    private static final long MAX_THRESHOLD = 16L << 20;

    private final String name;
    private final String prefix;
    private final Path path;
    private final @Nullable ExcerptCodecs chosen;
    private final @Nullable EncryptionKeys keys;

    private QueueCodecsConfigurer(String name, Path path, @Nullable ExcerptCodecs chosen,
                                  @Nullable EncryptionKeys keys) {
        this.name = name;
        this.prefix = "cq.queues." + name + ".";
        this.path = path;
        this.chosen = chosen;
        this.keys = keys;
    }

    /**
     * Checks the queue's codec properties and reads its key store.
     *
     * @throws InvalidQueuePropertyException for a compression threshold out of range
     * @throws QueueCodecsException          for incomplete encryption properties or a key store that cannot be read
     */
    static QueueCodecsConfigurer of(String name, Path path, QueueProperties queue) {
        String prefix = "cq.queues." + name + ".";
        Compression compression = queue.getCompression();
        long threshold = queue.getCompressionThreshold().toBytes();
        if (compression != null && compression != Compression.NONE && (threshold < 1 || threshold > MAX_THRESHOLD)) {
            throw new InvalidQueuePropertyException(prefix + "compression-threshold", queue.getCompressionThreshold(),
                    "a compression threshold must be from 1 byte to 16MB",
                    "Set " + prefix + "compression-threshold from 1B to 16MB, e.g. "
                            + ExcerptCodecs.DEFAULT_COMPRESSION_THRESHOLD + "B (the default).", null);
        }
        EncryptionKeys keys = queue.getEncryption().isConfigured() ? readKeys(name, queue.getEncryption()) : null;
        ExcerptCodecs chosen = null;
        if (queue.getChecksums() != null || compression != null) {
            chosen = ExcerptCodecs.none();
            if (Boolean.TRUE.equals(queue.getChecksums())) {
                chosen = chosen.withChecksums();
            }
            if (compression != null && compression != Compression.NONE) {
                chosen = chosen.withCompression(compression, (int) threshold);
            }
            if (keys != null) {
                chosen = chosen.withEncryption(keys);
            }
        } else if (keys != null && !queue.isReadOnly() && !Files.exists(path.resolve(TABLE_STORE))) {
            chosen = ExcerptCodecs.none().withEncryption(keys);
        }
        return new QueueCodecsConfigurer(name, path, chosen, keys);
    }

    void applyTo(MappedQueueBuilder builder) {
        if (chosen != null) {
            builder.codecs(chosen);
        } else if (keys != null) {
            builder.encryptionKeys(keys);
        }
    }

    /** The starter's account of a codecs failure of {@link MappedQueueBuilder#build()}. */
    QueueCodecsException explain(QueueException failure) {
        if (failure instanceof CodecsMismatchException mismatch) {
            return mismatch(mismatch);
        }
        if (keys == null) {
            return new QueueCodecsException(name, prefix + "encryption.key-store", "the queue in " + path
                    + " is encrypted, and no key store is configured for it, so this application cannot write to it",
                    "Set " + prefix + "encryption.key-store, " + prefix + "encryption.key-store-password (from an "
                            + "environment variable or a config tree) and " + prefix + "encryption.key-alias to the "
                            + "key store holding the queue's keys; or set " + prefix + "read-only=true to open it "
                            + "without them (reading an encrypted excerpt then fails).", failure);
        }
        return new QueueCodecsException(name, prefix + "encryption.key-alias", failure.getMessage(),
                "Set " + prefix + "encryption.key-alias to the alias of a key the store holds.", failure);
    }

    private QueueCodecsException mismatch(CodecsMismatchException mismatch) {
        ExcerptCodecs inForce = mismatch.codecsInForce();
        if (chosen == null && keys == null) {
            // asked for by a MappedQueueBuilderCustomizer, not by the properties
            return new QueueCodecsException(name, "cq.queues." + name, mismatch.getMessage(), "Let the "
                    + "MappedQueueBuilderCustomizer ask for the queue's own codecs (" + inForce.describe() + "), or "
                    + "none.", mismatch);
        }
        if (chosen == null) {
            return new QueueCodecsException(name, prefix + "encryption.key-store", "the queue in " + path
                    + " is not encrypted (its codecs: " + inForce.describe() + "), yet a key store is configured for "
                    + "it: nothing written to it would be encrypted",
                    "Remove " + prefix + "encryption.*, or point " + prefix + "path at a new directory to create an "
                            + "encrypted queue there (a queue's codecs are fixed when it is created).", mismatch);
        }
        List<String> differing = new ArrayList<>();
        if (inForce.encrypted() != chosen.encrypted()) {
            differing.add("encryption.key-store");
        }
        if (inForce.checksums() != chosen.checksums()) {
            differing.add("checksums");
        }
        if (inForce.compression() != chosen.compression()) {
            differing.add("compression");
        } else if (inForce.compressionThreshold() != chosen.compressionThreshold()) {
            differing.add("compression-threshold");
        }
        String property = prefix + (differing.isEmpty() ? "compression" : differing.getFirst());
        return new QueueCodecsException(name, property, "the queue in " + path + " was created with codecs: "
                + inForce.describe() + " (kept in its files), and the properties ask for " + chosen.describe(),
                "Set " + properties(inForce) + (inForce.encrypted() ? " beside " + prefix + "encryption.*" : "")
                        + " to match them, or remove " + prefix + "checksums and " + prefix + "compression to open "
                        + "it with its own codecs; a queue's codecs are fixed when it is created, so for others "
                        + "point " + prefix + "path at a new directory and copy the excerpts there.", mismatch);
    }

    /** The codec properties that ask for these codecs, keys aside. */
    private String properties(ExcerptCodecs codecs) {
        String shown = prefix + "checksums=" + codecs.checksums();
        return codecs.compression() == Compression.NONE ? shown + " and " + prefix + "compression=NONE"
                : shown + ", " + prefix + "compression=" + codecs.compression() + " and " + prefix
                        + "compression-threshold=" + codecs.compressionThreshold() + "B";
    }

    private static EncryptionKeys readKeys(String name, QueueEncryptionProperties encryption) {
        String prefix = "cq.queues." + name + ".encryption.";
        Path store = encryption.getKeyStore();
        String password = encryption.getKeyStorePassword();
        String alias = encryption.getKeyAlias();
        if (store == null) {
            throw new QueueCodecsException(name, prefix + "key-store", "the key store is not set, yet "
                    + (password != null ? prefix + "key-store-password" : prefix + "key-alias") + " is",
                    "Set " + prefix + "key-store to the key store file (PKCS12 or JCEKS) with the queue's keys, or "
                            + "remove " + prefix + "* for a queue that is not encrypted.", null);
        }
        if (password == null) {
            throw new QueueCodecsException(name, prefix + "key-store-password", "the key store " + store
                    + " is configured without its password", "Set " + prefix + "key-store-password, best from an "
                    + "environment variable" + environmentVariable(name) + " or a config tree, never in a file "
                    + "checked in.", null);
        }
        if (alias == null || alias.isBlank()) {
            throw new QueueCodecsException(name, prefix + "key-alias", "the key store " + store + " is configured "
                    + "without the alias of the key that encrypts new excerpts", "Set " + prefix + "key-alias to the "
                    + "alias of the queue's current key in the store.", null);
        }
        if (!Files.isRegularFile(store) || !Files.isReadable(store)) {
            throw new QueueCodecsException(name, prefix + "key-store", "the key store " + store + " is not a "
                    + "file this process can read", "Point " + prefix + "key-store at the key store file, readable "
                    + "by this process.", null);
        }
        char[] secret = password.toCharArray();
        try {
            return EncryptionKeys.fromKeyStore(store, secret, alias);
        } catch (IllegalArgumentException e) {
            throw unreadable(name, prefix, store, e);
        } finally {
            Arrays.fill(secret, '\0');
        }
    }

    /** Sorts out {@link EncryptionKeys#fromKeyStore}'s failures by the property to change. */
    private static QueueCodecsException unreadable(String name, String prefix, Path store,
                                                   IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("cannot read the keys of")) {
            return new QueueCodecsException(name, prefix + "key-store-password", message + "; every key must have "
                    + "the store's password", "Give each key of the store the password in " + prefix
                    + "key-store-password (keytool -keypasswd), or set that property to it.", e);
        }
        if (message.startsWith("cannot read key store")) {
            Throwable wrongPassword = cause(e, UnrecoverableKeyException.class);
            if (wrongPassword != null) {
                return new QueueCodecsException(name, prefix + "key-store-password", "the key store " + store
                        + " does not open with the configured password (" + wrongPassword.getMessage() + ")",
                        "Set " + prefix + "key-store-password to the key store's password.", e);
            }
            return new QueueCodecsException(name, prefix + "key-store", message, "Point " + prefix + "key-store "
                    + "at a PKCS12 or JCEKS key store holding the queue's AES keys.", e);
        }
        if (message.contains("has no AES secret key")) {
            return new QueueCodecsException(name, prefix + "key-alias", message, "Set " + prefix + "key-alias to "
                    + "the alias of one of the store's AES keys, or add an AES key under that alias (keytool "
                    + "-genseckey -keyalg AES -keysize 256 -storetype PKCS12).", e);
        }
        return new QueueCodecsException(name, prefix + "key-store", message, "Fix the key store as the message "
                + "says.", e);
    }

    private static @Nullable Throwable cause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return cause;
            }
        }
        return null;
    }

    /** How the password's property reads as an environment variable, for a queue name that can be one. */
    private static String environmentVariable(String name) {
        return name.matches("[A-Za-z0-9]+")
                ? " (CQ_QUEUES_" + name.toUpperCase(Locale.ROOT) + "_ENCRYPTION_KEYSTOREPASSWORD)" : "";
    }
}
