package io.cq.integration.bridge;

import io.cq.integration.CqHeaders;
import org.springframework.integration.core.MessageSelector;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts a message only if its {@link CqHeaders#INDEX} is higher than every index already accepted from the
 * same source queue ({@link CqHeaders#QUEUE}): the receiving end of an at-least-once bridge drops the
 * duplicates that a redelivery (a producer retry, a consumer rebalance, a restart of the sending adapter)
 * brings. It relies on what a bridge keeps: the excerpts of one queue arrive in index order (one partition, or
 * one key). Messages without the headers are accepted.
 *
 * <p>It remembers in memory, so after a restart seed it with {@link #seed(String, long)} from what the
 * destination already holds (e.g. the last index kept in the destination queue). Thread-safe.
 */
public final class IndexDeduplicator implements MessageSelector {
    private final Map<String, Long> highest = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();

    @Override
    public boolean accept(Message<?> message) {
        MessageHeaders headers = message.getHeaders();
        Object queue = headers.get(CqHeaders.QUEUE);
        Object index = headers.get(CqHeaders.INDEX);
        if (queue == null || !(index instanceof Number number)) {
            return true;
        }
        long candidate = number.longValue();
        boolean[] accepted = new boolean[1];
        highest.compute(queue.toString(), (name, seen) -> {
            accepted[0] = seen == null || candidate > seen;
            return accepted[0] ? candidate : seen;
        });
        if (!accepted[0]) {
            duplicates.incrementAndGet();
        }
        return accepted[0];
    }

    /** Treats every index up to {@code index} of {@code queue} as already accepted. */
    public void seed(String queue, long index) {
        highest.merge(queue, index, Math::max);
    }

    /** The highest index accepted from {@code queue}, or -1. */
    public long highestIndex(String queue) {
        return highest.getOrDefault(queue, -1L);
    }

    /** Messages rejected as duplicates so far. */
    public long duplicatesDropped() {
        return duplicates.get();
    }
}
