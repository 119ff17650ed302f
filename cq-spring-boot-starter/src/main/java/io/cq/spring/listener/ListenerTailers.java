package io.cq.spring.listener;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Opens a listener's named tailer, at its {@link StartPosition} when it has never committed a position. */
final class ListenerTailers {
    private static final Log log = LogFactory.getLog(ListenerTailers.class);

    private ListenerTailers() {
    }

    static ExcerptTailer open(MappedQueue queue, ListenerEndpoint endpoint) {
        // -1 is also what a tailer that was created but never committed leaves: it gets the start position again.
        boolean committedBefore = queue.namedTailer(endpoint.id()).map(position -> position.nextIndex() >= 0).orElse(false);
        ExcerptTailer tailer = queue.createTailer(endpoint.id());
        if (!committedBefore) {
            try {
                moveToStartPosition(queue, endpoint, tailer);
            } catch (RuntimeException e) {
                tailer.close();
                throw e;
            }
        }
        return tailer;
    }

    private static void moveToStartPosition(MappedQueue queue, ListenerEndpoint endpoint, ExcerptTailer tailer) {
        switch (endpoint.startPosition()) {
            case BEGINNING -> tailer.toStart();
            case END -> tailer.toEnd();
            case INDEX -> {
                if (!tailer.moveToIndex(endpoint.startIndex())) {
                    log.warn("Listener '" + endpoint.id() + "': queue '" + endpoint.queueName()
                            + "' has no excerpt at startIndex=" + endpoint.startIndex() + "; starting at its end");
                    tailer.toEnd();
                }
            }
            case TIME -> {
                long cycle = queue.rollCycle().cycleAt(endpoint.startTime().toEpochMilli());
                long first = queue.cycles().stream().filter(c -> c >= cycle).findFirst().orElse(-1L);
                if (first < 0 || !tailer.moveToIndex(queue.rollCycle().toIndex(first, 0))) {
                    tailer.toEnd();
                }
            }
        }
    }
}
