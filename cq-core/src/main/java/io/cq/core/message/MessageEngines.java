package io.cq.core.message;

/**
 * Finds cq's message codec by name (docs/architecture.md, "The API and the engine"): loading its class installs it,
 * once, for a few hundred microseconds; reflection on a constructor would cost tens of milliseconds.
 */
final class MessageEngines {
    /** Named, never referenced: this package depends on none of the codec's. */
    static final String ENGINE = "io.cq.core.internal.message.CborMessageEngine";

    private static volatile MessageEngine engine;

    private MessageEngines() {
    }

    static MessageEngine engine() {
        MessageEngine found = engine;
        return found != null ? found : load();
    }

    private static synchronized MessageEngine load() {
        if (engine == null) {
            try {
                Class.forName(ENGINE, true, MessageEngines.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("cq's message codec " + ENGINE + " is missing: cq-core's jar is "
                        + "incomplete", e);
            }
        }
        if (engine == null) {
            throw new IllegalStateException("cq's message codec " + ENGINE + " did not install itself");
        }
        return engine;
    }

    static void install(MessageEngine installed) {
        Class<?> type = installed.getClass();
        if (!type.getName().equals(ENGINE) || type.getModule() != MessageEngines.class.getModule()) {
            throw new IllegalArgumentException("only cq's own message codec is installed, not " + type.getName());
        }
        engine = installed;
    }
}
