package io.cq.spring.listener;

/**
 * An excerpt whose listener method kept throwing until its retries ran out.
 *
 * @param queue      the name of the queue it was read from
 * @param listenerId the listener that failed
 * @param index      its index in the queue
 * @param payload    a copy of its bytes
 * @param attempts   how many times the listener was called with it
 */
public record FailedExcerpt(String queue, String listenerId, long index, byte[] payload, int attempts) {
}
