package io.cq.spring.listener;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Logs the failure with the excerpt's index and skips the excerpt: the default recoverer. */
public final class LoggingErrorHandler implements ListenerErrorHandler {
    private static final Log log = LogFactory.getLog(LoggingErrorHandler.class);

    @Override
    public Resolution handle(FailedExcerpt excerpt, Exception error) {
        log.error("Listener '" + excerpt.listenerId() + "' failed " + excerpt.attempts() + " times on excerpt "
                + excerpt.index() + " (0x" + Long.toHexString(excerpt.index()) + ") of queue '" + excerpt.queue()
                + "'; skipping it", error);
        return Resolution.SKIP;
    }
}
