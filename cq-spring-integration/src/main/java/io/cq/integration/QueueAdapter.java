package io.cq.integration;

import io.cq.core.MappedQueue;

import java.nio.file.Path;

/**
 * The monitoring view every cq adapter shares: what {@link QueueAdapterInfo} reports about the queue, the named
 * tailer's position and the counts follows from {@link #queue()}, {@link #adapterId()}, {@link #kind()} and
 * {@link #counts()}, so that each adapter states only its id, kind and state.
 */
public interface QueueAdapter extends QueueAdapterInfo {
    /** The queue the adapter reads or appends to. */
    MappedQueue queue();

    /** The adapter's counts, which it alone adds to. */
    AdapterCounts counts();

    @Override
    default String queueName() {
        return queue().path().getFileName().toString();
    }

    @Override
    default Path queuePath() {
        return queue().path();
    }

    /** For a reader, its named tailer's persisted position; -1 for a writer. */
    @Override
    default long namedTailerIndex() {
        return kind().reads() ? NamedTailers.nextIndex(queue(), adapterId()) : -1;
    }

    /** For a reader, the excerpts after its named tailer's persisted position; 0 for a writer. */
    @Override
    default long lag() {
        return kind().reads() ? NamedTailers.lag(queue(), adapterId()) : 0;
    }

    @Override
    default long processedCount() {
        return counts().processed();
    }

    @Override
    default long failedCount() {
        return counts().failed();
    }
}
