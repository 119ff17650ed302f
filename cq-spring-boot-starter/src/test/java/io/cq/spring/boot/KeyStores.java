package io.cq.spring.boot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

/** Real PKCS12 key stores of fresh AES-256 keys, as {@code keytool -genseckey} makes them, for the tests. */
public final class KeyStores {
    private KeyStores() {
    }

    /**
     * Writes a PKCS12 key store with an AES key under each alias, store and keys protected by {@code password}.
     *
     * @return the keys' bytes, in hex and in Base64, which no output may show
     */
    public static List<String> write(Path file, String password, String... aliases) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256);
            List<String> shown = new ArrayList<>();
            for (String alias : aliases) {
                SecretKey key = generator.generateKey();
                store.setEntry(alias, new KeyStore.SecretKeyEntry(key),
                        new KeyStore.PasswordProtection(password.toCharArray()));
                shown.add(HexFormat.of().formatHex(key.getEncoded()));
                shown.add(Base64.getEncoder().encodeToString(key.getEncoded()));
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, password.toCharArray());
            }
            return shown;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write key store " + file, e);
        }
    }

    /** Whether the bytes of every file under {@code directory} lack {@code text} (as UTF-8). */
    public static boolean noFileContains(Path directory, String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (var files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).noneMatch(file -> contains(read(file), needle));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + directory, e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
