package io.cq.integration;

import io.cq.core.codec.EncryptionKeys;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.stream.Stream;
import javax.crypto.KeyGenerator;

/** A real PKCS12 key store of fresh AES-256 keys, as {@code keytool -genseckey} makes it, for the tests. */
public final class KeyStores {
    private KeyStores() {
    }

    /** Writes a key store with an AES key under each alias and returns its keys, the first alias current. */
    public static EncryptionKeys write(Path file, String password, String... aliases) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256);
            for (String alias : aliases) {
                store.setEntry(alias, new KeyStore.SecretKeyEntry(generator.generateKey()),
                        new KeyStore.PasswordProtection(password.toCharArray()));
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, password.toCharArray());
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write key store " + file, e);
        }
        return EncryptionKeys.fromKeyStore(file, password.toCharArray(), aliases[0]);
    }

    /** Whether some file under {@code directory} holds {@code text} as UTF-8. */
    public static boolean anyFileContains(Path directory, String text) {
        String needle = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).anyMatch(file -> {
                try {
                    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(needle);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read " + file, e);
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + directory, e);
        }
    }
}
