package io.cq.integration.bridge;

import io.cq.integration.CqHeaders;
import org.springframework.integration.handler.advice.AbstractRequestHandlerAdvice;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drops a message whose {@link CqHeaders#INDEX} is not higher than every index already delivered from the same
 * source queue ({@link CqHeaders#QUEUE}): on the receiving end of an at-least-once bridge, the duplicates that a
 * redelivery (a producer retry, a consumer rebalance, a restart of the sending adapter) brings. It relies on what a
 * bridge keeps: the excerpts of one queue arrive in index order (one partition, or one key). Messages without the
 * headers pass.
 *
 * <p>It is an advice on the handler that appends the message
 * ({@code .handle(Cq.outboundAdapter(copy), e -> e.advice(deduplicator))}), not a filter in front of it: an index
 * counts as delivered only once that handler returned. A filter would count it when it let the message through, so
 * a failed append, redelivered by Kafka's error handler, would then be dropped as a duplicate and lost.
 *
 * <p>It remembers in memory: after a restart it knows nothing, so what Kafka delivers again (what the consumer
 * group had not committed) is appended again unless it is seeded with {@link #seed(String, long)}.
 * Thread-safe.
 */
public final class IndexDeduplicator extends AbstractRequestHandlerAdvice {
    private final Map<String, Long> highest = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();

    @Override
    protected Object doInvoke(ExecutionCallback callback, Object target, Message<?> message) {
        if (isDuplicate(message)) {
            duplicates.incrementAndGet();
            return null;
        }
        Object result = callback.execute();
        delivered(message);
        return result;
    }

    /** Whether the message's index was delivered already (or is below one that was). */
    public boolean isDuplicate(Message<?> message) {
        MessageHeaders headers = message.getHeaders();
        Object queue = headers.get(CqHeaders.QUEUE);
        Object index = headers.get(CqHeaders.INDEX);
        if (queue == null || !(index instanceof Number number)) {
            return false;
        }
        Long seen = highest.get(queue.toString());
        return seen != null && number.longValue() <= seen;
    }

    /** Counts the message's index as delivered: called once the advised handler returned. */
    public void delivered(Message<?> message) {
        MessageHeaders headers = message.getHeaders();
        Object queue = headers.get(CqHeaders.QUEUE);
        if (queue != null && headers.get(CqHeaders.INDEX) instanceof Number index) {
            seed(queue.toString(), index.longValue());
        }
    }

    /** Treats every index up to {@code index} of {@code queue} as already delivered. */
    public void seed(String queue, long index) {
        highest.merge(queue, index, Math::max);
    }

    /** The highest index delivered from {@code queue}, or -1. */
    public long highestIndex(String queue) {
        return highest.getOrDefault(queue, -1L);
    }

    /** Messages dropped as duplicates so far. */
    public long duplicatesDropped() {
        return duplicates.get();
    }
}
