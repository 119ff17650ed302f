package io.cq.spring.listener;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Opens a listener's named tailer, at its {@link StartPosition} when it has never committed a position. */
final class ListenerTailers {
    private static final Log log = LogFactory.getLog(ListenerTailers.class);

    private ListenerTailers() {
    }

    static ExcerptTailer open(MappedQueue queue, ListenerEndpoint endpoint) {
        ExcerptTailer tailer = queue.createTailer(endpoint.id());
        StartPosition start = StartPosition.resumeOr(
                StartPosition.of(endpoint.startPosition(), endpoint.startIndex(), endpoint.startTime()));
        try {
            if (!tailer.moveTo(start) && start.kind() == StartPosition.Kind.INDEX) {
                log.warn("Listener '" + endpoint.id() + "': queue '" + endpoint.queueName()
                        + "' has no excerpt at startIndex=" + endpoint.startIndex() + "; starting at its end");
            }
        } catch (RuntimeException e) {
            tailer.close();
            throw e;
        }
        return tailer;
    }
}
