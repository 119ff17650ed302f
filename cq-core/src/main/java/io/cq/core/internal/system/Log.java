package io.cq.core.internal.system;

/**
 * cq's logging, through {@link System.Logger}: looked up on first use only, because finding the logging
 * backend costs milliseconds that do not belong on the path to a queue's first excerpt.
 */
public final class Log {
    private Log() {
    }

    public static void warning(Class<?> source, String message, Object... arguments) {
        logger(source).log(System.Logger.Level.WARNING, message, arguments);
    }

    public static void warning(Class<?> source, String message, Throwable error) {
        logger(source).log(System.Logger.Level.WARNING, message, error);
    }

    public static void info(Class<?> source, String message, Object... arguments) {
        logger(source).log(System.Logger.Level.INFO, message, arguments);
    }

    /** For what only someone looking into cq's workings wants to know: off unless asked for. */
    public static void debug(Class<?> source, String message, Object... arguments) {
        logger(source).log(System.Logger.Level.DEBUG, message, arguments);
    }

    private static System.Logger logger(Class<?> source) {
        return System.getLogger(source.getName());
    }
}
