package io.cq.core;

/**
 * Finds cq's engine by name (docs/architecture.md, "The API and the engine"): loading its class installs it. A class
 * loaded by name through a given loader costs a few hundred microseconds once; reflection on its constructor would
 * cost tens of milliseconds of a new process's start-up.
 */
final class Engines {
    /** Named, never referenced: the API's package depends on none of the engine's. */
    static final String QUEUE_ENGINE = "io.cq.core.internal.engine.StoreQueueEngine";

    private static volatile QueueEngine queue;

    private Engines() {
    }

    static QueueEngine queue() {
        QueueEngine engine = queue;
        return engine != null ? engine : loadQueueEngine();
    }

    private static synchronized QueueEngine loadQueueEngine() {
        if (queue == null) {
            try {
                Class.forName(QUEUE_ENGINE, true, Engines.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("cq's engine " + QUEUE_ENGINE + " is missing: cq-core's jar is "
                        + "incomplete", e);
            }
        }
        if (queue == null) {
            throw new IllegalStateException("cq's engine " + QUEUE_ENGINE + " did not install itself");
        }
        return queue;
    }

    static void install(QueueEngine engine) {
        Class<?> type = engine.getClass();
        if (!type.getName().equals(QUEUE_ENGINE) || type.getModule() != Engines.class.getModule()) {
            throw new IllegalArgumentException("only cq's own engine is installed, not " + type.getName());
        }
        queue = engine;
    }
}
