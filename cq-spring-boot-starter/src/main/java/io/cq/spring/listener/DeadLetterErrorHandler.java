package io.cq.spring.listener;

import io.cq.spring.core.QueueTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Appends the failed excerpt, with where it came from and why it failed, to a dead-letter queue as a
 * {@link DeadLetter}, then skips it. When the append itself fails, the container stops on the excerpt instead,
 * so it is never lost.
 */
public final class DeadLetterErrorHandler implements ListenerErrorHandler {
    private static final Log log = LogFactory.getLog(DeadLetterErrorHandler.class);

    private final QueueTemplate template;
    private final String deadLetterQueue;

    public DeadLetterErrorHandler(QueueTemplate template, String deadLetterQueue) {
        this.template = template;
        this.deadLetterQueue = deadLetterQueue;
        template.queue(deadLetterQueue);
    }

    @Override
    public Resolution handle(FailedExcerpt excerpt, Exception error) {
        String message = error.getMessage() == null ? "" : error.getMessage();
        DeadLetter letter = new DeadLetter(excerpt.queue(), excerpt.index(), excerpt.listenerId(),
                error.getClass().getName(), message, excerpt.payload());
        long index = template.write(deadLetterQueue, letter::writeTo);
        log.warn("Listener '" + excerpt.listenerId() + "' failed " + excerpt.attempts() + " times on excerpt "
                + excerpt.index() + " of queue '" + excerpt.queue() + "' (" + error + "); moved it to queue '"
                + deadLetterQueue + "' at index " + index);
        return Resolution.SKIP;
    }

    public String deadLetterQueue() {
        return deadLetterQueue;
    }
}
