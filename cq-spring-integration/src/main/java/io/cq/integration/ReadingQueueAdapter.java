package io.cq.integration;

import io.cq.core.MappedQueue;

import java.nio.file.Path;

/**
 * The monitoring view shared by the adapters that read a queue through a named tailer named after their id
 * (inbound channel adapter, message source, durable channel): what {@link QueueAdapterInfo} reports about the
 * queue and the tailer's position follows from the queue and the id.
 */
public interface ReadingQueueAdapter extends QueueAdapterInfo {
    /** The queue the adapter reads. */
    MappedQueue queue();

    @Override
    default String queueName() {
        return queue().path().getFileName().toString();
    }

    @Override
    default Path queuePath() {
        return queue().path();
    }

    @Override
    default long namedTailerIndex() {
        return NamedTailers.nextIndex(queue(), adapterId());
    }

    @Override
    default long lag() {
        return NamedTailers.lag(queue(), adapterId());
    }
}
