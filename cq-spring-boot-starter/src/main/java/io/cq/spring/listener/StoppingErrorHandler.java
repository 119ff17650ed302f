package io.cq.spring.listener;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Stops the listener's container on the failed excerpt, which stays uncommitted; the listener is reported FAILED. */
public final class StoppingErrorHandler implements ListenerErrorHandler {
    private static final Log log = LogFactory.getLog(StoppingErrorHandler.class);

    @Override
    public Resolution handle(FailedExcerpt excerpt, Exception error) {
        log.error("Listener '" + excerpt.listenerId() + "' failed " + excerpt.attempts() + " times on excerpt "
                + excerpt.index() + " (0x" + Long.toHexString(excerpt.index()) + ") of queue '" + excerpt.queue()
                + "'; stopping it there (seek past the excerpt or fix the cause, then start it again)", error);
        return Resolution.STOP;
    }
}
