package io.cq.cli;

import io.cq.core.MappedQueueBuilder;
import io.cq.core.MissingKeyException;
import io.cq.core.codec.EncryptionKeys;
import picocli.CommandLine.Option;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import javax.crypto.SecretKey;

/**
 * {@code --key-store} and {@code --key-alias}: the keys of an encrypted queue (docs/cli.md, "Encrypted queues"),
 * from a PKCS12 or JCEKS key store whose password comes from {@value #PASSWORD_VARIABLE} or, when that is unset, a
 * prompt on the terminal; never from the command line, where other users' {@code ps} would show it.
 */
final class KeyStoreOptions {
    static final String PASSWORD_VARIABLE = "CQ_KEY_STORE_PASSWORD";

    @Option(names = "--key-store", paramLabel = "<file>",
            description = "The key store (PKCS12 or JCEKS) holding an encrypted queue's AES keys: every AES secret "
                    + "key in it is used to read. Its password is read from the environment variable "
                    + PASSWORD_VARIABLE + ", or asked for on the terminal when that is unset.")
    Path keyStore;

    @Option(names = "--key-alias", paramLabel = "<alias>",
            description = "The alias of the key store's entry that encrypts new excerpts (write); by default its "
                    + "only AES key. Readers need no alias: an excerpt names its key.")
    String keyAlias;

    /** Where the password comes from: the environment, as the process was started. */
    private final Function<String, String> environment;

    KeyStoreOptions() {
        this(System::getenv);
    }

    KeyStoreOptions(Function<String, String> environment) {
        this.environment = environment;
    }

    /** Gives the builder the keys when a key store was named; {@code writing}: its current key will encrypt. */
    MappedQueueBuilder apply(MappedQueueBuilder builder, boolean writing) {
        EncryptionKeys keys = keys(writing);
        return keys == null ? builder : builder.encryptionKeys(keys);
    }

    /**
     * The keys of {@code --key-store}, or null when none was named.
     *
     * @throws UserInputException naming the key store and what is wrong: not there, wrong password, no AES key,
     *                            no such alias, several keys and no alias to say which encrypts
     */
    EncryptionKeys keys(boolean writing) {
        if (keyStore == null) {
            if (keyAlias != null) {
                throw new UserInputException("--key-alias names a key of a key store: give the key store with "
                        + "--key-store too");
            }
            return null;
        }
        if (!Files.isRegularFile(keyStore)) {
            throw new UserInputException("key store " + keyStore + " does not exist or is not a file");
        }
        char[] password = password();
        try {
            KeyStore store = load(password);
            String current = currentAlias(store, password, writing);
            return EncryptionKeys.fromKeyStore(keyStore, password, current);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage());
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private char[] password() {
        String fromEnvironment = environment.apply(PASSWORD_VARIABLE);
        if (fromEnvironment != null) {
            return fromEnvironment.toCharArray();
        }
        Console console = System.console();
        if (console == null || !console.isTerminal()) {
            throw new UserInputException("the password of key store " + keyStore + " is needed: set "
                    + PASSWORD_VARIABLE + " (there is no terminal to ask on)");
        }
        char[] typed = console.readPassword("Password of key store %s: ", keyStore);
        if (typed == null) {
            throw new UserInputException("no password was typed for key store " + keyStore);
        }
        return typed;
    }

    private KeyStore load(char[] password) {
        try {
            return KeyStore.getInstance(keyStore.toFile(), password);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new UserInputException("cannot open key store " + keyStore + ": wrong password (from "
                        + (environment.apply(PASSWORD_VARIABLE) != null ? PASSWORD_VARIABLE : "the prompt") + ")");
            }
            throw new UserInputException("cannot read key store " + keyStore + ": " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new UserInputException("cannot read key store " + keyStore + ": " + e.getMessage()
                    + " (cq reads PKCS12 and JCEKS key stores)");
        }
    }

    /** The alias whose key encrypts new excerpts: the one named, else the only AES key (any one, to read). */
    private String currentAlias(KeyStore store, char[] password, boolean writing) {
        if (keyAlias != null) {
            return keyAlias;
        }
        List<String> aes = new ArrayList<>();
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias) && store.getKey(alias, password) instanceof SecretKey key
                        && "AES".equalsIgnoreCase(key.getAlgorithm())) {
                    aes.add(alias);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new UserInputException("cannot read the keys of key store " + keyStore + ": " + e.getMessage());
        }
        if (aes.isEmpty()) {
            throw new UserInputException("key store " + keyStore + " holds no AES secret key");
        }
        if (writing && aes.size() > 1) {
            throw new UserInputException("key store " + keyStore + " holds several AES keys " + aes + ": name the "
                    + "one that encrypts new excerpts with --key-alias");
        }
        Collections.sort(aes);
        return aes.getFirst();
    }

    /**
     * What to say when an encrypted queue needs a key it was not given: without {@code --key-store}, how to give
     * one (the engine's own message speaks of its API); with it, the engine's message, which names the queue, the
     * key id and the ids the key store has.
     */
    RuntimeException explain(MissingKeyException missing, Path directory) {
        if (keyStore != null) {
            return missing;
        }
        return new UserInputException("queue " + directory + " is encrypted" + (missing.keyId() == 0 ? ""
                : String.format(" (excerpts with key id 0x%08x)", missing.keyId())) + " and no key store was given: "
                + "give it with --key-store <file>, its password in " + PASSWORD_VARIABLE);
    }
}
